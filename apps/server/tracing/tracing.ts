import type { Logger } from '../../../core/index.js'

/** The ids of a request's trace in a log line, named as pino's OpenTelemetry conventions do. */
export type TraceIds = {
  readonly trace_id: string
  readonly span_id: string
  /** Two hex digits: `01` when sampled. */
  readonly trace_flags: string
}

/** Tracing once started (start.ts); absent when the OTEL_ variables ask for none. */
export type Tracing = {
  /** The ids of the request being served (its server span), when there is one. */
  readonly currentIds: () => TraceIds | undefined
  /**
   * Where problems of the SDK go (an unreachable collector, mostly): the first one only, so that
   * a collector that stays down costs one line, not one per batch of spans.
   */
  readonly reportProblemsTo: (logger: Logger) => void
  /** Exports what is pending, then stops. */
  readonly shutdown: () => Promise<void>
}
