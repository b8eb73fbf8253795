import { expect } from 'chai'
import type { Run, Sample } from '../../bench/report.js'
import { tracingTargets } from '../../bench/tracing-targets.js'

const OFF = 'off'
const ON = 'on'
const LISTING = 'GET /pets?status=available&limit=20'

const sample = (rps: number, p99 = 10, rssMB = 100): Sample => ({
  rps,
  p50: 1,
  p99,
  cpuMicrosPerRequest: 1e6 / rps,
  rssMB,
  loaderCpu: 50,
  problems: [],
})

/** A run whose paired rounds measured tracing off and on at these req/s, round by round. */
const runOf = (off: number[], on: number[]): Run => ({
  meta: { pairedSeconds: 3 },
  samples: { [LISTING]: { [OFF]: [sample(1000)], [ON]: [sample(1000, 10, 110)] } },
  paired: { [LISTING]: { [OFF]: off.map((r) => sample(r)), [ON]: on.map((r) => sample(r)) } },
  readsRssAfterRound: {},
  notes: [],
})

const rpsLine = (run: Run) =>
  tracingTargets(run, OFF, [{ name: ON, minRps: 0.75 }]).find((l) => l.includes('req/s')) ?? ''

describe("the benchmark's tracing targets", () => {
  it("judge the median of each round's ratio, not the ratio of the rows' medians", () => {
    // The host slows down by half over the run; tracing costs 0.8× in every round.
    const off = [2000, 1800, 1600, 1400, 1200, 1000]
    const on = off.map((r) => r * 0.8)
    expect(rpsLine(runOf(off, on))).to.equal(
      `- met: ${LISTING}: req/s 0.800 [0.800–0.800]× tracing off's (≥ 0.75×)`,
    )
    // 0.7× in every round falls short, however fast the host was in each.
    const slower = off.map((r) => r * 0.7)
    expect(rpsLine(runOf(off, slower))).to.match(/^- \*\*NOT MET\*\*: .* req\/s 0\.700 /)
    // Rows whose medians are equal (1,000), whose rounds' ratios are 3, 0.5 and 0.333.
    const rounds = rpsLine(runOf([1000, 1000, 3000], [3000, 500, 1000]))
    expect(rounds).to.match(/NOT MET.* req\/s 0\.500 \[0\.333–3\.000\]×/)
  })

  it('hold RSS to 30 MB above tracing off, and p99 to 2×', () => {
    const lines = tracingTargets(runOf([1000], [900]), OFF, [{ name: ON, minRps: 0.75 }])
    expect(lines).to.include(
      `- met: RSS of the reading instance 10 MB above tracing off's (≤ 30 MB)`,
    )
    const slowTail: Run = {
      ...runOf([1000], [900]),
      paired: { [LISTING]: { [OFF]: [sample(1000, 10)], [ON]: [sample(900, 25)] } },
    }
    const p99 = tracingTargets(slowTail, OFF, [{ name: ON, minRps: 0.75 }])
    expect(p99.find((l) => l.includes('p99'))).to.match(/^- \*\*NOT MET\*\*: .*p99 2\.50 /)
  })
})
