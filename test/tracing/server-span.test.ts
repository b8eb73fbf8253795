import {
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  TraceFlags,
  type Context,
  type SpanContext,
} from '@opentelemetry/api'
import { TraceState } from '@opentelemetry/core'
import { resourceFromAttributes } from '@opentelemetry/resources'
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  ParentBasedSampler,
  TraceIdRatioBasedSampler,
  TracerProvider,
  type ReadableSpan,
  type Sampler,
} from '@opentelemetry/sdk-trace'
import { expect } from 'chai'
import fc from 'fast-check'
import { sampledAtRatio, type TraceIdGenerator } from '../../apps/server/tracing/ids.js'
import type { SpanPipeline } from '../../apps/server/tracing/pipeline.js'
import { serverSpans } from '../../apps/server/tracing/server-span.js'
import { foldOf, keptSpans } from '../support/spans.js'

const hex = (length: number) =>
  fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: length, maxLength: length })

/** A sampler, given a ratio that only the ratio samplers read, and whether it is one of those. */
const SAMPLERS: ReadonlyArray<[string, (ratio: number) => Sampler, boolean]> = [
  ['always_on', () => new AlwaysOnSampler(), false],
  ['always_off', () => new AlwaysOffSampler(), false],
  ['parentbased_always_on', () => new ParentBasedSampler({ root: new AlwaysOnSampler() }), false],
  ['parentbased_always_off', () => new ParentBasedSampler({ root: new AlwaysOffSampler() }), false],
  ['traceidratio', (ratio) => new TraceIdRatioBasedSampler(ratio), true],
  [
    'parentbased_traceidratio',
    (ratio) => new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(ratio) }),
    true,
  ],
]

/** The caller's span, from its `traceparent` and `tracestate`. */
const callerOf = fc.record({
  traceId: hex(32),
  spanId: hex(16),
  traceFlags: fc.constantFrom(TraceFlags.NONE, TraceFlags.SAMPLED),
  traceState: fc.option(fc.constantFrom('vendor=a', 'one=1,two=2'), { nil: undefined }),
})
type Caller = typeof callerOf extends fc.Arbitrary<infer C> ? C : never

const caseOf = fc.record({
  sampler: fc.constantFrom(...SAMPLERS),
  ratio: fc.oneof(fc.constantFrom(0, 0.1, 0.5, 1), fc.double({ min: 0, max: 1, noNaN: true })),
  traceId: hex(32),
  spanId: hex(16),
  caller: fc.option(callerOf, { nil: undefined }),
  limits: fc.record({
    attributeCountLimit: fc.integer({ min: 0, max: 8 }),
    attributeValueLengthLimit: fc.oneof(fc.integer({ min: 0, max: 12 }), fc.constant(Infinity)),
  }),
  // Set in turn, as the service sets a server span's: some keys twice, values cut or not.
  attributes: fc.array(
    fc.tuple(
      fc.constantFrom('url.path', 'client.address', 'server.port', 'http.route', 'a', 'b', 'c'),
      fc.oneof(fc.string({ maxLength: 20 }), fc.integer(), fc.boolean()),
    ),
    { maxLength: 12 },
  ),
  name: fc.constantFrom('GET', 'POST'),
  route: fc.option(fc.constantFrom('/v1/pets', '/v1/pets/:petId'), { nil: undefined }),
  failed: fc.boolean(),
})

/** The ids a case gives: both tracers make the same ones, so their samplers see the same trace. */
const fixedIds = (traceId: string, spanId: string): TraceIdGenerator => ({
  generateTraceId: () => traceId,
  generateSpanId: () => spanId,
  newTrace: () => ({ traceId, fold: foldOf(traceId) }),
})

const parentOf = (caller: Caller | undefined): Context =>
  caller === undefined
    ? ROOT_CONTEXT
    : trace.setSpanContext(ROOT_CONTEXT, {
        traceId: caller.traceId,
        spanId: caller.spanId,
        traceFlags: caller.traceFlags,
        isRemote: true,
        ...(caller.traceState === undefined
          ? {}
          : { traceState: new TraceState(caller.traceState) }),
      })

const contextOf = (context: SpanContext) => ({
  traceId: context.traceId,
  spanId: context.spanId,
  traceFlags: context.traceFlags,
  traceState: context.traceState?.serialize(),
})

/** What a span holds, to compare: its times are checked apart. */
const heldBy = (span: ReadableSpan) => ({
  name: span.name,
  kind: span.kind,
  context: contextOf(span.spanContext()),
  parent: span.parentSpanContext?.spanId,
  attributes: span.attributes,
  droppedAttributesCount: span.droppedAttributesCount,
  status: span.status,
  events: span.events,
  links: span.links,
  droppedEventsCount: span.droppedEventsCount,
  droppedLinksCount: span.droppedLinksCount,
  scope: span.instrumentationScope.name,
  ended: span.ended,
})

describe('tracing: the server span, made without the SDK', () => {
  it('samples, limits and records a request as the SDK span would, and reaches the same processors', () => {
    const resource = resourceFromAttributes({ 'service.name': 'animal-store' })
    fc.assert(
      fc.property(caseOf, (c) => {
        const parent = parentOf(c.caller)
        const sdk = keptSpans()
        const provider = new TracerProvider({
          sampler: c.sampler[1](c.ratio),
          spanLimits: c.limits,
          resource,
          idGenerator: fixedIds(c.traceId, c.spanId),
          spanProcessors: [sdk.processor],
        })
        const before = Date.now()
        const theirs = provider
          .getTracer('animal-store')
          .startSpan(c.name, { kind: SpanKind.SERVER }, parent)
        const ours = keptSpans()
        const pipeline: SpanPipeline = {
          sampler: c.sampler[1](c.ratio),
          // As spanPipelineOf gives it: a trace started under a ratio sampler is decided by its fold.
          sampleNewTrace: c.sampler[2] ? sampledAtRatio(c.ratio) : undefined,
          spanLimits: c.limits,
          resource,
          idGenerator: fixedIds(c.traceId, c.spanId),
          spanProcessors: [ours.processor],
        }
        const { spanContext, span } = serverSpans(pipeline, { name: 'animal-store' })(
          c.name,
          parent,
        )
        expect(contextOf(spanContext), 'the context logged').to.deep.equal(
          contextOf(theirs.spanContext()),
        )
        expect(span !== undefined, 'recorded').to.equal(theirs.isRecording())
        for (const [key, value] of c.attributes) {
          theirs.setAttribute(key, value)
          span?.setAttribute(key, value)
        }
        if (c.route !== undefined) {
          theirs.updateName(`${c.name} ${c.route}`)
          if (span !== undefined) span.name = `${c.name} ${c.route}`
        }
        if (c.failed) {
          theirs.setStatus({ code: SpanStatusCode.ERROR })
          if (span !== undefined) span.status = { code: SpanStatusCode.ERROR }
        }
        theirs.end()
        span?.end()
        span?.end()
        const after = Date.now()
        expect(ours.ended.map(heldBy)).to.deep.equal(sdk.ended.map(heldBy))
        for (const ended of ours.ended) {
          expect(ended.resource).to.equal(resource)
          const [start, end] = [ended.startTime, ended.endTime].map(([s, ns]) => s * 1e3 + ns / 1e6)
          expect(start).to.be.within(before, after)
          expect(end! - start!).to.be.within(0, after - before + 1)
          const [s, ns] = ended.duration
          expect(s * 1e3 + ns / 1e6).to.be.closeTo(end! - start!, 1e-3)
        }
      }),
      { numRuns: 500 },
    )
  })
})
