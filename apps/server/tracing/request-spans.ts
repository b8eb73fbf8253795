import {
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  TraceFlags,
  type Attributes,
  type Context,
  type Span,
  type Tracer,
} from '@opentelemetry/api'
import type {
  AppContext,
  RequestTrace,
  RequestTracer,
  TracedAnswer,
  TraceLogFields,
} from '../../../adapters/koa/index.js'
import { stepsOf } from './steps.js'

/** The probes are asked every few seconds by the orchestrator: traces of them would bury the rest. */
const PROBES = new Set(['/healthz', '/readyz'])

/** The request as HTTP's semantic conventions describe a server span's, where the service sees it. */
const requestAttributes = (ctx: AppContext): Attributes => {
  const { req } = ctx
  const host = /^(\[[^\]]*\]|[^:]*)(?::(\d+))?$/.exec(req.headers.host ?? '')
  const userAgent = req.headers['user-agent']
  return {
    'http.request.method': ctx.method,
    'url.path': ctx.path,
    'url.scheme': ctx.protocol,
    // The address the service itself uses: the peer, or what trusted proxies say (TRUST_PROXY).
    'client.address': ctx.ip,
    ...(host?.[1] ? { 'server.address': host[1] } : {}),
    ...(host?.[2] === undefined ? {} : { 'server.port': Number(host[2]) }),
    ...(userAgent === undefined ? {} : { 'user_agent.original': userAgent }),
  }
}

const logFieldsOf = (span: Span): TraceLogFields => {
  const { traceId, spanId, traceFlags } = span.spanContext()
  const sampled = (traceFlags & TraceFlags.SAMPLED) === TraceFlags.SAMPLED
  return { trace_id: traceId, span_id: spanId, trace_flags: sampled ? '01' : '00' }
}

const endServerSpan = (span: Span, method: string, { status, route }: TracedAnswer) => {
  span.setAttribute('http.response.status_code', status)
  if (route !== undefined) {
    span.setAttribute('http.route', route)
    span.updateName(`${method} ${route}`)
  }
  if (status >= 500) {
    span.setAttribute('error.type', String(status))
    span.setStatus({ code: SpanStatusCode.ERROR })
  }
  span.end()
}

/** A request that is not sampled: its ids are made and logged, and nothing else is done. */
const untraced = (logFields: TraceLogFields): RequestTrace => ({
  logFields,
  step: (_name, _kind, run) => run(),
  inOperation: (run) => run(),
  end: () => {},
})

/**
 * Spans made at the service's own seams: a server span per request (continuing the caller's W3C
 * `traceparent` through the configured propagator), a span per operation and, when asked, one
 * per middleware. The request's context travels in `ctx.state.trace`, not through a context
 * manager (steps.ts says why).
 */
export const createRequestTracer = (tracer: Tracer, middlewareSpans: boolean): RequestTracer => ({
  middlewareSpans,
  start: (ctx) => {
    if (PROBES.has(ctx.path)) return undefined
    const parent: Context = propagation.extract(ROOT_CONTEXT, ctx.req.headers)
    const span = tracer.startSpan(ctx.method, { kind: SpanKind.SERVER }, parent)
    const logFields = logFieldsOf(span)
    if (!span.isRecording()) return untraced(logFields)
    span.setAttributes(requestAttributes(ctx))
    const method = ctx.method
    return {
      logFields,
      ...stepsOf(tracer, trace.setSpan(parent, span)),
      end: (answer) => endServerSpan(span, method, answer),
    }
  },
})
