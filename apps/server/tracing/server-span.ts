import {
  isSpanContextValid,
  SpanKind,
  SpanStatusCode,
  trace,
  TraceFlags,
  type Attributes,
  type AttributeValue,
  type Context,
  type HrTime,
  type Link,
  type SpanContext,
  type SpanStatus,
} from '@opentelemetry/api'
import {
  addHrTimes,
  hrTimeDuration,
  millisToHrTime,
  type InstrumentationScope,
} from '@opentelemetry/core'
import type { Resource } from '@opentelemetry/resources'
import {
  SamplingDecision,
  type ReadableSpan,
  type SamplingResult,
  type TimedEvent,
} from '@opentelemetry/sdk-trace'
import type { SpanPipeline } from './pipeline.js'

const NO_LINKS: Link[] = []
const NO_EVENTS: TimedEvent[] = []
const SAMPLED: SamplingResult = { decision: SamplingDecision.RECORD_AND_SAMPLED }
const NOT_RECORDED: SamplingResult = { decision: SamplingDecision.NOT_RECORD }

/**
 * A request's server span: what the SDK's span records for one, made without it. The SDK's span
 * checks, copies and timestamps for any use, and was most of what tracing cost a request; this
 * one holds what a server span has (attributes, a name, a status, its times) under the same
 * limits, and reaches the same processors as a ReadableSpan when it ends.
 */
export class ServerSpan implements ReadableSpan {
  readonly kind = SpanKind.SERVER
  readonly attributes: Attributes = {}
  droppedAttributesCount = 0
  status: SpanStatus = { code: SpanStatusCode.UNSET }
  readonly startTime: HrTime
  endTime: HrTime = [0, 0]
  duration: HrTime = [-1, -1]
  ended = false
  readonly links = NO_LINKS
  readonly events = NO_EVENTS
  readonly droppedEventsCount = 0
  readonly droppedLinksCount = 0
  /** The caller's span, when the request continues a trace. */
  readonly parentSpanContext?: SpanContext
  /** performance.now() at the start: the duration is monotonic, the start is the wall clock's. */
  private readonly startedAt: number
  private attributeCount = 0

  constructor(
    public name: string,
    private readonly context: SpanContext,
    parent: SpanContext | undefined,
    private readonly pipeline: SpanPipeline,
    readonly instrumentationScope: InstrumentationScope,
  ) {
    if (parent !== undefined) this.parentSpanContext = parent
    // As the SDK times a span: the wall clock at the start, then the monotonic clock's duration.
    this.startTime = millisToHrTime(Date.now())
    this.startedAt = performance.now()
  }

  get resource(): Resource {
    return this.pipeline.resource
  }

  spanContext(): SpanContext {
    return this.context
  }

  /**
   * As the SDK's span: past the count limit a new key is dropped (and counted), text past a
   * positive length limit is cut, and an ended span changes no more.
   */
  setAttribute(key: string, value: AttributeValue): void {
    if (this.ended) return
    const { attributeCountLimit, attributeValueLengthLimit } = this.pipeline.spanLimits
    if (!Object.hasOwn(this.attributes, key)) {
      if (this.attributeCount >= attributeCountLimit) {
        this.droppedAttributesCount++
        return
      }
      this.attributeCount++
    }
    this.attributes[key] =
      typeof value === 'string' &&
      attributeValueLengthLimit > 0 &&
      value.length > attributeValueLengthLimit
        ? value.slice(0, attributeValueLengthLimit)
        : value
  }

  setAttributes(attributes: Attributes): void {
    for (const key in attributes) {
      const value = attributes[key]
      if (value !== undefined) this.setAttribute(key, value)
    }
  }

  end(): void {
    if (this.ended) return
    this.endTime = addHrTimes(this.startTime, millisToHrTime(performance.now() - this.startedAt))
    this.duration = hrTimeDuration(this.startTime, this.endTime)
    this.ended = true
    for (const processor of this.pipeline.spanProcessors) processor.onEnd(this)
  }
}

/** Where a request stands in its trace: its span context (for the log line), and its span if recorded. */
export type RequestSpan = {
  readonly spanContext: SpanContext
  readonly span: ServerSpan | undefined
}

/**
 * Starts server spans as the SDK's tracer starts a span: the caller's trace continued (`parent`,
 * extracted from its headers), new ids from the pipeline's generator, and the pipeline's sampler's
 * decision; a trace that starts here under a ratio sampler is decided from its id's fold, as that
 * sampler decides (ids.ts). The SDK's processors are told of a span when it ends; none of theirs
 * uses its start.
 */
export const serverSpans = (pipeline: SpanPipeline, scope: InstrumentationScope) => {
  const { idGenerator, sampler, sampleNewTrace } = pipeline
  const decide = (
    parent: Context,
    caller: SpanContext | undefined,
    name: string,
  ): { readonly traceId: string; readonly sampling: SamplingResult } => {
    if (caller === undefined && sampleNewTrace !== undefined) {
      const { traceId, fold } = idGenerator.newTrace()
      return { traceId, sampling: sampleNewTrace(fold) ? SAMPLED : NOT_RECORDED }
    }
    const traceId = caller?.traceId ?? idGenerator.generateTraceId()
    return {
      traceId,
      sampling: sampler.shouldSample(parent, traceId, name, SpanKind.SERVER, {}, []),
    }
  }
  return (name: string, parent: Context): RequestSpan => {
    const caller = trace.getSpanContext(parent)
    const validCaller = caller !== undefined && isSpanContextValid(caller) ? caller : undefined
    const { traceId, sampling } = decide(parent, validCaller, name)
    const spanId = idGenerator.generateSpanId()
    const spanContext: SpanContext = {
      traceId,
      spanId,
      traceFlags:
        sampling.decision === SamplingDecision.RECORD_AND_SAMPLED
          ? TraceFlags.SAMPLED
          : TraceFlags.NONE,
    }
    const traceState = sampling.traceState ?? validCaller?.traceState
    if (traceState !== undefined) spanContext.traceState = traceState
    if (sampling.decision === SamplingDecision.NOT_RECORD) return { spanContext, span: undefined }
    const span = new ServerSpan(name, spanContext, validCaller, pipeline, scope)
    if (sampling.attributes !== undefined) span.setAttributes(sampling.attributes)
    return { spanContext, span }
  }
}
