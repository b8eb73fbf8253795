import type { RequestTracer } from '../../../adapters/koa/index.js'
import type { Logger } from '../../../core/index.js'
import type { StoreSpans } from './store-spans.js'

/** Tracing once started (start.ts); absent when the OTEL_ variables ask for none. */
export type Tracing = {
  /** The app's tracer: a span for each request (and its operation, with more detail). */
  readonly requestTracer: RequestTracer
  /**
   * The store decorators; `system` is the database's name (`mongodb`), absent in the process.
   * Undefined when the store's calls get no span (seams.ts).
   */
  readonly storeSpans: (system: string | undefined) => StoreSpans | undefined
  /**
   * Where problems of the SDK go (an unreachable collector, mostly): the first one only, so that
   * a collector that stays down costs one line, not one per batch of spans.
   */
  readonly reportProblemsTo: (logger: Logger) => void
  /** Exports what is pending, then stops. */
  readonly shutdown: () => Promise<void>
}
