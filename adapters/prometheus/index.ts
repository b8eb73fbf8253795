import { collectDefaultMetrics, Registry } from 'prom-client'
import type { PetStore } from '../../core/index.js'
import { createStoreMetrics } from './measured-pet-store.js'
import { createRequestMetrics } from './request-metrics.js'

export type PrometheusMetrics = {
  /** Structurally the HTTP adapter's RequestObserver. */
  readonly observeRequest: ReturnType<typeof createRequestMetrics>['observeRequest']
  /** Wraps a PetStore so that its calls are measured. */
  readonly measureStore: (store: PetStore) => PetStore
  /** The exposition: Prometheus text format. */
  readonly contentType: string
  readonly render: () => Promise<string>
}

/**
 * Process metrics and event-loop lag come from prom-client (its defaults, in a registry of this
 * service's own, so that two apps in one process, as in tests, do not share counts); requests and
 * store calls from our own cells (see exposition.ts), appended at scrape time.
 */
export const createPrometheusMetrics = (): PrometheusMetrics => {
  const registry = new Registry()
  collectDefaultMetrics({ register: registry })
  const requests = createRequestMetrics()
  const store = createStoreMetrics()
  return {
    observeRequest: requests.observeRequest,
    measureStore: store.measureStore,
    contentType: registry.contentType,
    render: async () => `${await registry.metrics()}\n${requests.render()}${store.render()}`,
  }
}
