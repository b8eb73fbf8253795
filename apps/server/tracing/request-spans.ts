import type { IncomingHttpHeaders } from 'node:http'
import {
  propagation,
  ROOT_CONTEXT,
  SpanStatusCode,
  trace,
  TraceFlags,
  type Context,
  type SpanContext,
  type Tracer,
} from '@opentelemetry/api'
import type {
  AppContext,
  RequestTrace,
  RequestTracer,
  TracedAnswer,
  TraceLogFields,
} from '../../../adapters/koa/index.js'
import {
  W3CBaggagePropagator,
  W3CTraceContextPropagator,
  type InstrumentationScope,
} from '@opentelemetry/core'
import type { SpanPipeline } from './pipeline.js'
import { serverSpans, type ServerSpan } from './server-span.js'
import type { TraceDetail } from './settings.js'
import { runAs, stepsOf } from './steps.js'

/** The probes are asked every few seconds by the orchestrator: traces of them would bury the rest. */
const PROBES = new Set(['/healthz', '/readyz'])

const HOST = /^(\[[^\]]*\]|[^:]*)(?::(\d+))?$/

/** The methods HTTP's semantic conventions know (RFC 9110's and PATCH); Node accepts more. */
const KNOWN_METHODS = new Set([
  'CONNECT',
  'DELETE',
  'GET',
  'HEAD',
  'OPTIONS',
  'PATCH',
  'POST',
  'PUT',
  'TRACE',
])

/**
 * The request as HTTP's semantic conventions describe a server span's, where the service sees it;
 * the method as the span's name gives it: another method is `_OTHER`, and its span `HTTP`.
 */
const describeRequest = (span: ServerSpan, ctx: AppContext): string => {
  const { req, method } = ctx
  if (KNOWN_METHODS.has(method)) span.setAttribute('http.request.method', method)
  else {
    span.name = 'HTTP'
    span.setAttribute('http.request.method', '_OTHER')
    span.setAttribute('http.request.method_original', method)
  }
  span.setAttribute('url.path', ctx.path)
  span.setAttribute('url.scheme', ctx.protocol)
  // The address the service itself uses: the peer, or what trusted proxies say (TRUST_PROXY).
  span.setAttribute('client.address', ctx.ip)
  const host = HOST.exec(req.headers.host ?? '')
  if (host?.[1]) span.setAttribute('server.address', host[1])
  if (host?.[2] !== undefined) span.setAttribute('server.port', Number(host[2]))
  const userAgent = req.headers['user-agent']
  if (userAgent !== undefined) span.setAttribute('user_agent.original', userAgent)
  return span.name
}

const logFieldsOf = ({ traceId, spanId, traceFlags }: SpanContext): TraceLogFields => {
  const sampled = (traceFlags & TraceFlags.SAMPLED) === TraceFlags.SAMPLED
  return { trace_id: traceId, span_id: spanId, trace_flags: sampled ? '01' : '00' }
}

const endServerSpan = (span: ServerSpan, method: string, { status, route }: TracedAnswer) => {
  span.setAttribute('http.response.status_code', status)
  if (route !== undefined) {
    span.setAttribute('http.route', route)
    span.name = `${method} ${route}`
  }
  if (status >= 500) {
    span.setAttribute('error.type', String(status))
    span.status = { code: SpanStatusCode.ERROR }
  }
  span.end()
}

/** The headers of W3C's propagators, the default (`tracecontext,baggage`), as the SDK names them. */
const W3C_FIELDS = [
  ...new W3CTraceContextPropagator().fields(),
  ...new W3CBaggagePropagator().fields(),
]

/**
 * Whether a request has any of the headers `fields` names. W3C's, the default, are read each by
 * its name: a read whose name varies takes V8's megamorphic lookup, which costs more than the
 * rest of the check, on every request. Should the SDK's names ever differ from the three read
 * here, the set no longer matches and the general look takes over.
 */
export const hasAnyHeaderOf = (
  fields: ReadonlyArray<string>,
): ((headers: IncomingHttpHeaders) => boolean) =>
  fields.length === W3C_FIELDS.length && W3C_FIELDS.every((field) => fields.includes(field))
    ? (headers) =>
        headers.traceparent !== undefined ||
        headers.tracestate !== undefined ||
        headers.baggage !== undefined
    : (headers) => fields.some((field) => headers[field] !== undefined)

/**
 * The caller's context, read through the global propagator only when the request has one of the
 * headers that propagator names (its `fields()`, taken when the tracer is made): most requests
 * have none, and an extract costs more than the look. A header it does not name can carry only
 * baggage (Jaeger's `uberctx-`), which no span of the service reads.
 */
const callerContexts = (): ((headers: IncomingHttpHeaders) => Context) => {
  const hasCallerHeaders = hasAnyHeaderOf(propagation.fields().map((field) => field.toLowerCase()))
  return (headers) =>
    hasCallerHeaders(headers) ? propagation.extract(ROOT_CONTEXT, headers) : ROOT_CONTEXT
}

const runStep: RequestTrace['step'] = (_name, _kind, run) => run()
const run: RequestTrace['inOperation'] = (task) => task()
const nothing = () => {}

/**
 * A request that is not sampled: its ids are made and logged, and nothing else is done (the app
 * calls none of its functions, which would do nothing anyway).
 */
const untraced = (logFields: TraceLogFields): RequestTrace => ({
  logFields,
  recording: false,
  step: runStep,
  inOperation: run,
  end: nothing,
})

/**
 * The steps of a request whose only span is the server span: the operation runs as it, so the
 * calls it makes to a store outside the process are the server span's children. Its context is
 * made only if a store call asks for it: an in-process store never does.
 */
const serverSpanOnly = (
  parent: Context,
  spanContext: SpanContext,
): Pick<RequestTrace, 'step' | 'inOperation'> => {
  let context: Context | undefined
  const root = () => (context ??= trace.setSpanContext(parent, spanContext))
  return {
    step: (_name, kind, task) => (kind === 'operation' ? runAs(root, task) : task()),
    inOperation: (task) => runAs(root, task),
  }
}

/**
 * Spans made at the service's own seams: a server span per request (continuing the caller's W3C
 * `traceparent` through the configured propagator; server-span.ts) and, with more detail asked
 * for (seams.ts), a span per operation and one per middleware, made by the SDK's tracer. The
 * propagator is the one registered when the tracer is made (start.ts registers it first). The
 * request's context travels in `ctx.state.trace`, not through a context manager (steps.ts says why).
 */
export const createRequestTracer = (
  tracer: Tracer,
  scope: InstrumentationScope,
  pipeline: SpanPipeline,
  detail: TraceDetail,
): RequestTracer => {
  const startSpan = serverSpans(pipeline, scope)
  const callerContextOf = callerContexts()
  return {
    middlewareSpans: detail === 'middleware',
    start: (ctx) => {
      if (PROBES.has(ctx.path)) return undefined
      const parent = callerContextOf(ctx.req.headers)
      const { spanContext, span } = startSpan(ctx.method, parent)
      const logFields = logFieldsOf(spanContext)
      if (span === undefined) return untraced(logFields)
      const method = describeRequest(span, ctx)
      const steps =
        detail === 'request'
          ? serverSpanOnly(parent, spanContext)
          : stepsOf(tracer, trace.setSpanContext(parent, spanContext))
      return {
        logFields,
        step: steps.step,
        inOperation: steps.inOperation,
        end: (answer) => endServerSpan(span, method, answer),
      }
    },
  }
}
