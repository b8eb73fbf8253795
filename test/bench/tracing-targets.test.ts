import { expect } from 'chai'
import type { Run, Sample } from '../../bench/report.js'
import { tracingTargets } from '../../bench/tracing-targets.js'

const OFF = 'off'
const ON = 'on'
const LISTING = 'GET /pets?status=available&limit=20'

const sample = (cpuMicrosPerRequest: number, p99 = 10, rssMB = 100, loaderCpu = 50): Sample => ({
  rps: 1e6 / cpuMicrosPerRequest,
  p50: 1,
  p99,
  cpuMicrosPerRequest,
  rssMB,
  loaderCpu,
  problems: [],
})

/** A run whose side-by-side rounds measured tracing off and on at these CPU µs a request. */
const runOf = (off: number[], on: number[], main = { off: sample(40), on: sample(50) }): Run => ({
  meta: { pairedSeconds: 5 },
  samples: { [LISTING]: { [OFF]: [main.off], [ON]: [main.on] } },
  paired: { [LISTING]: { [OFF]: off.map((c) => sample(c)), [ON]: on.map((c) => sample(c)) } },
  readsRssAfterRound: {},
  notes: [],
})

const linesOf = (run: Run) => tracingTargets(run, OFF, [{ name: ON, minRps: 0.75 }])
const line = (run: Run, what: string) =>
  linesOf(run).find((l) => l.startsWith('- ') && l.includes(what)) ?? ''

describe("the benchmark's tracing targets", () => {
  it("judge a core's throughput by the median of each round's ratio of CPU per request", () => {
    // The host slows down by half over the run; tracing costs 0.8× in every round.
    const off = [40, 44, 50, 60, 70, 80]
    expect(
      line(
        runOf(
          off,
          off.map((c) => c / 0.8),
        ),
        'throughput',
      ),
    ).to.equal(
      `- met: ${LISTING}: throughput of a core 0.800 [0.800–0.800]× tracing off's (≥ 0.75×)`,
    )
    expect(
      line(
        runOf(
          off,
          off.map((c) => c / 0.7),
        ),
        'throughput',
      ),
    ).to.match(/^- \*\*NOT MET\*\*: .* throughput of a core 0\.700 /)
    // Rows whose medians are equal (40 µs), whose rounds' ratios are 3, 0.5 and 0.333.
    expect(line(runOf([120, 40, 40], [40, 80, 120]), 'throughput')).to.match(
      /NOT MET.* 0\.500 \[0\.333–3\.000\]×/,
    )
    expect(line(runOf([40, 40], [50, 60]), 'CPU per request')).to.include('15 [10–20] µs above')
  })

  it("hold p99 to 2× and RSS to 30 MB above tracing off's in the main rounds, and flag a busy load", () => {
    const main = { off: sample(40, 10, 100), on: sample(50, 25, 110) }
    const run = runOf([40], [50], main)
    expect(line(run, 'p99')).to.match(/^- \*\*NOT MET\*\*: .*p99 2\.50× /)
    expect(line(run, 'RSS')).to.equal(
      `- met: RSS of the reading instance 10 MB above tracing off's (≤ 30 MB)`,
    )
    expect(line(run, 'load processes')).to.match(/^- met: .* at most 50% of their core/)
    const busy: Run = {
      ...run,
      paired: { [LISTING]: { [OFF]: [sample(40, 10, 100, 95)], [ON]: [sample(50, 10, 100, 95)] } },
    }
    expect(line(busy, 'load processes')).to.match(/^- \*\*NOT MET\*\*: .* at most 95% /)
  })
})
