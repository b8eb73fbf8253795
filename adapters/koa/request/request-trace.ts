import type { AppContext } from './app-state.js'

/** The fields that join a request's log lines to its trace, named as pino's OpenTelemetry mixin names them. */
export type TraceLogFields = {
  /** 32 hexadecimal digits, as W3C's `traceparent` writes them (and OpenTelemetry's API checks). */
  readonly trace_id: string
  /** 16 hexadecimal digits. */
  readonly span_id: string
  /** Two hex digits: `01` when sampled. */
  readonly trace_flags: string
}

/** What the app tells a request's trace once the answer is decided. */
export type TracedAnswer = {
  readonly status: number
  /** The route template (`/v1/pets/:petId`), undefined when no route took the request. */
  readonly route: string | undefined
}

/**
 * A request's trace, as a {@link RequestTracer} started it; the app keeps it in `ctx.state.trace`
 * and passes it on explicitly, so no context has to follow the request's promises.
 */
export type RequestTrace = {
  readonly logFields: TraceLogFields
  /**
   * False when nothing of the request is recorded (it is not sampled): the app then calls none
   * of `step`, `inOperation` and `end`, and the trace only names the request in its log lines.
   * Absent counts as true.
   */
  readonly recording?: boolean
  /**
   * Runs a step of the request (the operation's handler, named by its operationId, or one
   * middleware) in a span of its own, under the innermost step still open; the span ends when
   * `run`'s promise settles (at once if it returns none).
   */
  readonly step: <T>(name: string, kind: 'operation' | 'middleware', run: () => T) => T
  /**
   * Runs `run` (a store task the operation starts) as part of the operation open now: the store
   * calls it makes before it first waits are the operation's children.
   */
  readonly inOperation: <T>(run: () => T) => T
  /** Ends the request's span. */
  readonly end: (answer: TracedAnswer) => void
}

/**
 * Traces requests: given to `createKoaApp` (deps.tracer), called first for every request. The app
 * knows nothing of OpenTelemetry; the service's composition root gives one that makes spans.
 */
export type RequestTracer = {
  /** The request's trace, or undefined when it is not traced at all (the probes, say). */
  readonly start: (ctx: AppContext) => RequestTrace | undefined
  /** A span for each middleware of the app too (for debugging: they cost a span each). */
  readonly middlewareSpans?: boolean
}
