import { propagation, type Attributes } from '@opentelemetry/api'
import { W3CTraceContextPropagator } from '@opentelemetry/core'
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  TracerProvider,
  type ReadableSpan,
} from '@opentelemetry/sdk-trace'
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
  options: { readonly sampled?: boolean; readonly detail?: TraceDetail } = {},
): RecordedSpans => {
  const exporter = new InMemorySpanExporter()
  const provider = new TracerProvider({
    sampler: options.sampled === false ? new AlwaysOffSampler() : new AlwaysOnSampler(),
    spanProcessors: [new SimpleSpanProcessor({ exporter })],
  })
  const tracer = provider.getTracer('test')
  return {
    tracing: {
      ...seamSpans(tracer, options.detail ?? 'request'),
      reportProblemsTo: () => {},
      shutdown: () => provider.shutdown(),
    },
    spans: () => exporter.getFinishedSpans(),
  }
}

export const named = (spans: ReadonlyArray<ReadableSpan>, name: string): ReadableSpan => {
  const span = spans.find((s) => s.name === name)
  if (span === undefined) throw new Error(`no span ${name} in ${spans.map((s) => s.name).join()}`)
  return span
}

export const parentIdOf = (span: ReadableSpan): string | undefined => span.parentSpanContext?.spanId

export const attributesOf = (span: ReadableSpan): Attributes => span.attributes
