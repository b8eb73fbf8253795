import { Counter, Histogram, type Registry } from 'prom-client'

type Children = {
  readonly latency: { observe: (seconds: number) => void }
  readonly byStatus: Map<number, { inc: () => void }>
}

/** Seconds; the API answers in well under a millisecond on memory, tens of ms on a database. */
const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5]

/**
 * Requests by route template, method and status, latency by route and method, and the answers
 * operators page on: 429, 503 and aborted requests. The labelled children are looked up once
 * per (route, method, status) and cached, so a request costs a few map reads and no allocation.
 */
export const createRequestMetrics = (registry: Registry) => {
  const registers = [registry]
  const requests = new Counter({
    name: 'animal_store_http_requests_total',
    help: 'Requests answered, by route template, method and status.',
    labelNames: ['route', 'method', 'status'],
    registers,
  })
  const latency = new Histogram({
    name: 'animal_store_http_request_duration_seconds',
    help: 'Time from receipt to the answer being decided, by route template and method.',
    labelNames: ['route', 'method'],
    buckets: LATENCY_BUCKETS,
    registers,
  })
  const counter = (name: string, help: string) => new Counter({ name, help, registers })
  const rateLimited = counter('animal_store_http_rate_limited_total', 'Answers 429.')
  const unavailable = counter('animal_store_http_unavailable_total', 'Answers 503.')
  const aborted = counter(
    'animal_store_http_aborted_total',
    'Requests whose client went away before the answer.',
  )

  const cache = new Map<string, Map<string, Children>>()
  const childrenOf = (route: string, method: string): Children => {
    let byMethod = cache.get(route)
    if (byMethod === undefined) cache.set(route, (byMethod = new Map()))
    let children = byMethod.get(method)
    if (children === undefined)
      byMethod.set(
        method,
        (children = { latency: latency.labels(route, method), byStatus: new Map() }),
      )
    return children
  }

  return (route: string, method: string, status: number, seconds: number, wasAborted: boolean) => {
    const children = childrenOf(route, method)
    let count = children.byStatus.get(status)
    if (count === undefined)
      children.byStatus.set(status, (count = requests.labels(route, method, String(status))))
    count.inc()
    children.latency.observe(seconds)
    if (status === 429) rateLimited.inc()
    else if (status === 503) unavailable.inc()
    if (wasAborted) aborted.inc()
  }
}
