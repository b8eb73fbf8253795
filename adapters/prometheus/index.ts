import type { OnUnreadablePet, PetStore } from '../../core/index.js'
import { createStoreMetrics } from './store-metrics.js'
import { createRequestMetrics } from './request-metrics.js'
import { createRuntimeMetrics, type RuntimeMetricsOptions } from './runtime-metrics.js'

export type PrometheusMetrics = {
  /** Structurally the HTTP adapter's RequestObserver. */
  readonly observeRequest: ReturnType<typeof createRequestMetrics>['observeRequest']
  /** Wraps a PetStore so that its calls are measured. */
  readonly measureStore: (store: PetStore) => PetStore
  /** Counts a stored pet the store could not read (the store's `onUnreadablePet`). */
  readonly countUnreadablePet: OnUnreadablePet
  /** The exposition: Prometheus text format. */
  readonly contentType: string
  readonly render: () => Promise<string>
}

/** The Prometheus text format, version 0.0.4: what every Prometheus server scrapes. */
const CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8'

/**
 * Requests, store calls and the runtime, each kept in cells of our own (see exposition.ts) and
 * written out at scrape time. Every call makes a set of its own, so that two apps in one process,
 * as in tests, do not share counts.
 */
export const createPrometheusMetrics = (options: RuntimeMetricsOptions = {}): PrometheusMetrics => {
  const requests = createRequestMetrics()
  const store = createStoreMetrics()
  const runtime = createRuntimeMetrics(options)
  return {
    observeRequest: requests.observeRequest,
    measureStore: store.measureStore,
    countUnreadablePet: store.countUnreadablePet,
    contentType: CONTENT_TYPE,
    render: async () => `${await runtime.render()}${requests.render()}${store.render()}`,
  }
}
