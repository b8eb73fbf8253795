import { monitorEventLoopDelay } from 'node:perf_hooks'
import { renderGauge } from './exposition.js'

/** The event-loop delay is sampled every 10 ms, as prom-client's defaults do. */
const RESOLUTION_MS = 10

/** How late a callback queued now runs: the event loop's backlog at this moment. */
const lagNow = (): Promise<number> => {
  const queued = process.hrtime.bigint()
  return new Promise((resolve) =>
    setImmediate(() => resolve(Number(process.hrtime.bigint() - queued) / 1e9)),
  )
}

/**
 * `nodejs_eventloop_lag_seconds` (at the scrape) and the distribution of the delays sampled since
 * the previous scrape (`_min`, `_max`, `_mean`, `_stddev`, `_p50`, `_p90`, `_p99`), in seconds.
 */
export const createEventLoopLag = () => {
  const delay = monitorEventLoopDelay({ resolution: RESOLUTION_MS })
  delay.enable()
  // Nothing sampled yet: 0, not the histogram's empty values (a min of 9.2e18 ns, a NaN mean).
  const seconds = (ns: number) => (delay.count === 0 ? 0 : ns / 1e9)
  const gauge = (suffix: string, help: string, value: number) =>
    renderGauge(`nodejs_eventloop_lag${suffix}_seconds`, help, [{ labels: '', value }])

  const render = async (): Promise<string> => {
    const text = [
      gauge('', 'Lag of the event loop at the scrape.', await lagNow()),
      gauge('_min', 'The smallest event-loop delay since the last scrape.', seconds(delay.min)),
      gauge('_max', 'The largest event-loop delay since the last scrape.', seconds(delay.max)),
      gauge('_mean', 'The mean event-loop delay since the last scrape.', seconds(delay.mean)),
      gauge('_stddev', 'The standard deviation of those delays.', seconds(delay.stddev)),
      ...[50, 90, 99].map((p) =>
        gauge(`_p${p}`, `The ${p}th percentile of those delays.`, seconds(delay.percentile(p))),
      ),
    ].join('')
    // Since the last scrape, as prom-client does: a spike an hour ago is not this minute's p99.
    delay.reset()
    return text
  }

  return { render }
}
