import type { TracerProvider } from '@opentelemetry/api'
import type { SpanPipeline } from './pipeline.js'
import { createRequestTracer } from './request-spans.js'
import { createStoreSpans } from './store-spans.js'
import type { TraceDetail } from './settings.js'
import type { Tracing } from './tracing.js'

/** The instrumentation scope of every span the service makes. */
const SCOPE = { name: 'animal-store' }

/**
 * The spans made at the service's seams, at a level of detail:
 * - `request`: a server span per request, and a span per call to a store outside the process
 *   (MongoDB), where a request waits;
 * - `operation`: also the operation's own span (its handler), and every store call's, in the
 *   process too;
 * - `middleware`: also a span per middleware.
 *
 * The server spans are the service's own (server-span.ts); the others are the SDK's, from
 * `provider`, which was built on the same `pipeline`.
 */
export const seamSpans = (
  provider: TracerProvider,
  pipeline: SpanPipeline,
  detail: TraceDetail,
): Pick<Tracing, 'requestTracer' | 'storeSpans'> => {
  const tracer = provider.getTracer(SCOPE.name)
  return {
    requestTracer: createRequestTracer(tracer, SCOPE, pipeline, detail),
    storeSpans: (system) =>
      system === undefined && detail === 'request' ? undefined : createStoreSpans(tracer, system),
  }
}
