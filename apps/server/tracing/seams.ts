import type { Tracer } from '@opentelemetry/api'
import { createRequestTracer } from './request-spans.js'
import { createStoreSpans } from './store-spans.js'
import type { TraceDetail } from './settings.js'
import type { Tracing } from './tracing.js'

/**
 * The spans made at the service's seams, at a level of detail:
 * - `request`: a server span per request, and a span per call to a store outside the process
 *   (MongoDB), where a request waits;
 * - `operation`: also the operation's own span (its handler), and every store call's, in the
 *   process too;
 * - `middleware`: also a span per middleware.
 */
export const seamSpans = (
  tracer: Tracer,
  detail: TraceDetail,
): Pick<Tracing, 'requestTracer' | 'storeSpans'> => ({
  requestTracer: createRequestTracer(tracer, detail),
  storeSpans: (system) =>
    system === undefined && detail === 'request' ? undefined : createStoreSpans(tracer, system),
})
