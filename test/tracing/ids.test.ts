import { ROOT_CONTEXT } from '@opentelemetry/api'
import {
  RandomIdGenerator,
  SamplingDecision,
  TraceIdRatioBasedSampler,
} from '@opentelemetry/sdk-trace'
import { expect } from 'chai'
import fc from 'fast-check'
import { sampledAtRatio, TraceIds } from '../../apps/server/tracing/ids.js'
import { foldOf } from '../support/spans.js'

/** 32-bit words, zero often enough to reach the rule for an id of zeros. */
const words = (length: number) =>
  fc.array(fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 0xffffffff })), {
    minLength: length,
    maxLength: length,
  })

/** A Math.random that gives these words, in turn, as the SDK's generator reads them. */
const replaying = (given: ReadonlyArray<number>) => {
  let next = 0
  return () => given[next++]! / 0x100000000
}

/** What the SDK's RandomIdGenerator makes when Math.random gives these words. */
const sdkMakes = <T>(given: ReadonlyArray<number>, make: (ids: RandomIdGenerator) => T): T => {
  const random = Math.random
  Math.random = replaying(given)
  try {
    return make(new RandomIdGenerator())
  } finally {
    Math.random = random
  }
}

describe('tracing: trace and span ids', () => {
  it('are the ids the SDK makes from the same random words, zeros included', () => {
    fc.assert(
      fc.property(words(4), words(2), (traceWords, spanWords) => {
        expect(new TraceIds(replaying(traceWords)).generateTraceId()).to.equal(
          sdkMakes(traceWords, (ids) => ids.generateTraceId()),
        )
        expect(new TraceIds(replaying(spanWords)).generateSpanId()).to.equal(
          sdkMakes(spanWords, (ids) => ids.generateSpanId()),
        )
      }),
      { numRuns: 1000 },
    )
    expect(new TraceIds(() => 0).generateTraceId()).to.equal(`${'0'.repeat(31)}1`)
    expect(new TraceIds(() => 0).generateSpanId()).to.equal(`${'0'.repeat(15)}1`)
  })

  it('are lowercase hex of 32 and 16 digits from Math.random by default', () => {
    const ids = new TraceIds()
    const traces = new Set(Array.from({ length: 100 }, () => ids.generateTraceId()))
    expect(traces.size).to.equal(100)
    for (const id of traces) expect(id).to.match(/^[0-9a-f]{32}$/)
    expect(ids.generateSpanId()).to.match(/^[0-9a-f]{16}$/)
  })

  it("gives a new trace's fold: the XOR of its id's four words", () => {
    fc.assert(
      fc.property(words(4), (given) => {
        const { traceId, fold } = new TraceIds(replaying(given)).newTrace()
        expect(traceId).to.equal(sdkMakes(given, (ids) => ids.generateTraceId()))
        expect(fold).to.equal(foldOf(traceId))
      }),
    )
  })

  it("decides from the fold as the SDK's TraceIdRatioBased sampler decides from the id", () => {
    const ratios = fc.oneof(
      fc.constantFrom(0, 1, 0.1, 0.5, -1, 2, Number.NaN, Number.EPSILON, 1 - Number.EPSILON),
      fc.double(),
    )
    fc.assert(
      fc.property(ratios, words(4), (ratio, given) => {
        const { traceId, fold } = new TraceIds(replaying(given)).newTrace()
        const theirs = new TraceIdRatioBasedSampler(ratio).shouldSample(ROOT_CONTEXT, traceId)
        expect(sampledAtRatio(ratio)(fold), `${ratio} ${traceId}`).to.equal(
          theirs.decision === SamplingDecision.RECORD_AND_SAMPLED,
        )
      }),
      { numRuns: 2000 },
    )
  })

  it('decides as the SDK at the very edge of the share', () => {
    // The share of 2^32 - 1, rounded down: 0.5 gives 2147483647, 0.1 gives 429496729.
    for (const [ratio, edge] of [
      [0.5, 2147483647],
      [0.1, 429496729],
    ] as const) {
      for (const fold of [edge - 1, edge, edge + 1]) {
        const { traceId } = new TraceIds(replaying([fold, 0, 0, 0])).newTrace()
        const theirs = new TraceIdRatioBasedSampler(ratio).shouldSample(ROOT_CONTEXT, traceId)
        expect(theirs.decision === SamplingDecision.RECORD_AND_SAMPLED).to.equal(fold < edge)
        expect(sampledAtRatio(ratio)(fold), `${ratio} ${fold}`).to.equal(fold < edge)
      }
    }
  })

  it('samples no trace at ratio 0, every trace at 1, and about the share between', () => {
    const ids = new TraceIds()
    const share = (ratio: number) => {
      const sampled = sampledAtRatio(ratio)
      let count = 0
      for (let i = 0; i < 20_000; i++) if (sampled(ids.newTrace().fold)) count++
      return count / 20_000
    }
    expect(share(0)).to.equal(0)
    expect(share(1)).to.equal(1)
    expect(share(0.1)).to.be.within(0.08, 0.12)
  })
})
