import { collectDefaultMetrics, Registry } from 'prom-client'
import type { PetStore } from '../../core/index.js'
import { createStoreMetrics } from './measured-pet-store.js'
import { createRequestMetrics } from './request-metrics.js'

export type PrometheusMetrics = {
  /** Structurally the HTTP adapter's RequestObserver. */
  readonly observeRequest: ReturnType<typeof createRequestMetrics>
  /** Wraps a PetStore so that its calls are measured. */
  readonly measureStore: (store: PetStore) => PetStore
  /** The exposition: Prometheus text format. */
  readonly contentType: string
  readonly render: () => Promise<string>
}

/**
 * One registry per service: process metrics and event-loop lag (prom-client's defaults), plus
 * the requests and store calls. A registry of its own, so that two apps in one process (tests)
 * do not share counts.
 */
export const createPrometheusMetrics = (): PrometheusMetrics => {
  const registry = new Registry()
  collectDefaultMetrics({ register: registry })
  return {
    observeRequest: createRequestMetrics(registry),
    measureStore: createStoreMetrics(registry),
    contentType: registry.contentType,
    render: () => registry.metrics(),
  }
}
