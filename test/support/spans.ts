import { propagation, type Attributes } from '@opentelemetry/api'
import { W3CTraceContextPropagator } from '@opentelemetry/core'
import { defaultResource } from '@opentelemetry/resources'
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  TracerProvider,
  type ReadableSpan,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace'
import { TraceIds } from '../../apps/server/tracing/ids.js'
import type { SpanPipeline } from '../../apps/server/tracing/pipeline.js'
import { seamSpans } from '../../apps/server/tracing/seams.js'
import type { TraceDetail } from '../../apps/server/tracing/settings.js'
import type { Tracing } from '../../apps/server/tracing/tracing.js'

// What the SDK registers (start.ts): W3C propagation, and no context manager.
propagation.setGlobalPropagator(new W3CTraceContextPropagator())

export type RecordedSpans = {
  readonly tracing: Tracing
  /** The spans ended so far. */
  readonly spans: () => ReadonlyArray<ReadableSpan>
}

/** The service's tracing (start.ts) without the SDK's exporter: the spans are kept in memory. */
export const recordedSpans = (
  options: {
    readonly sampled?: boolean
    readonly detail?: TraceDetail
    readonly spanLimits?: SpanPipeline['spanLimits']
  } = {},
): RecordedSpans => {
  const exporter = new InMemorySpanExporter()
  const pipeline: SpanPipeline = {
    sampler: options.sampled === false ? new AlwaysOffSampler() : new AlwaysOnSampler(),
    resource: defaultResource(),
    spanLimits: options.spanLimits ?? {
      attributeCountLimit: 128,
      attributeValueLengthLimit: Infinity,
    },
    idGenerator: new TraceIds(),
    spanProcessors: [new SimpleSpanProcessor({ exporter })],
  }
  const provider = new TracerProvider({ ...pipeline, spanProcessors: [...pipeline.spanProcessors] })
  return {
    tracing: {
      ...seamSpans(provider, pipeline, options.detail ?? 'request'),
      reportProblemsTo: () => {},
      shutdown: () => provider.shutdown(),
    },
    spans: () => exporter.getFinishedSpans(),
  }
}

/** A processor that keeps each span as it ends, in `ended`. */
export const keptSpans = (): { ended: ReadableSpan[]; processor: SpanProcessor } => {
  const ended: ReadableSpan[] = []
  const processor: SpanProcessor = {
    onStart: () => {},
    onEnd: (span) => void ended.push(span),
    forceFlush: async () => {},
    shutdown: async () => {},
  }
  return { ended, processor }
}

export const named = (spans: ReadonlyArray<ReadableSpan>, name: string): ReadableSpan => {
  const span = spans.find((s) => s.name === name)
  if (span === undefined) throw new Error(`no span ${name} in ${spans.map((s) => s.name).join()}`)
  return span
}

export const parentIdOf = (span: ReadableSpan): string | undefined => span.parentSpanContext?.spanId

export const attributesOf = (span: ReadableSpan): Attributes => span.attributes

/** The XOR of a hex trace id's four 32-bit words, read from the hex: what TraceIdRatioBased compares. */
export const foldOf = (traceId: string): number =>
  [0, 8, 16, 24].reduce((fold, at) => (fold ^ parseInt(traceId.slice(at, at + 8), 16)) >>> 0, 0)
