import {
  histogramCell,
  labelText,
  observe,
  renderCounter,
  renderHistogram,
  type CounterCell,
  type HistogramCell,
} from './exposition.js'

type RouteCells = { readonly latency: HistogramCell; readonly byStatus: Map<number, CounterCell> }

/** Seconds; the API answers in well under a millisecond on memory, tens of ms on a database. */
const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5]

/**
 * Requests by route template, method and status, latency by route and method, and the answers
 * operators page on: 429, 503 for an unavailable store, and aborted requests. The cells of a
 * (route, method, status) are made on first use and found by map lookups afterwards: no
 * allocation per request.
 */
export const createRequestMetrics = () => {
  const cells = new Map<string, Map<string, RouteCells>>()
  const totals = {
    rateLimited: { labels: '', value: 0 },
    unavailable: { labels: '', value: 0 },
    aborted: { labels: '', value: 0 },
  }

  const cellsOf = (route: string, method: string): RouteCells => {
    let byMethod = cells.get(route)
    if (byMethod === undefined) cells.set(route, (byMethod = new Map()))
    let found = byMethod.get(method)
    if (found === undefined) {
      const latency = histogramCell(labelText({ route, method }), LATENCY_BUCKETS)
      byMethod.set(method, (found = { latency, byStatus: new Map() }))
    }
    return found
  }

  const observeRequest = (
    route: string,
    method: string,
    status: number,
    seconds: number,
    aborted: boolean,
    storeUnavailable: boolean,
  ): void => {
    const found = cellsOf(route, method)
    let count = found.byStatus.get(status)
    if (count === undefined) {
      count = { labels: labelText({ route, method, status: String(status) }), value: 0 }
      found.byStatus.set(status, count)
    }
    count.value += 1
    observe(found.latency, LATENCY_BUCKETS, seconds)
    if (status === 429) totals.rateLimited.value += 1
    // Not every 503: a draining instance's /readyz is one on every rolling restart.
    if (storeUnavailable) totals.unavailable.value += 1
    if (aborted) totals.aborted.value += 1
  }

  const render = (): string => {
    const all = [...cells.values()].flatMap((byMethod) => [...byMethod.values()])
    return [
      renderCounter(
        'animal_store_http_requests_total',
        'Requests by route template, method and the status answered (499: the client went away, or its request timed out, first).',
        all.flatMap((c) => [...c.byStatus.values()]),
      ),
      renderHistogram(
        'animal_store_http_request_duration_seconds',
        'Time from receipt to the answer being decided, by route template and method.',
        LATENCY_BUCKETS,
        all.map((c) => c.latency),
      ),
      renderCounter('animal_store_http_rate_limited_total', 'Answers 429.', [totals.rateLimited]),
      renderCounter(
        'animal_store_http_unavailable_total',
        'Answers 503 because a store (of pets, or of API keys) is unavailable.',
        [totals.unavailable],
      ),
      renderCounter(
        'animal_store_http_aborted_total',
        'Requests whose client went away, or whose request timed out, before the answer.',
        [totals.aborted],
      ),
    ].join('')
  }

  return { observeRequest, render }
}
