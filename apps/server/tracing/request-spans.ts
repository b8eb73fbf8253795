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
import type { TraceDetail } from './settings.js'
import { runAs, stepsOf } from './steps.js'

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

const runStep: RequestTrace['step'] = (_name, _kind, run) => run()
const run: RequestTrace['inOperation'] = (task) => task()
const nothing = () => {}

/** A request that is not sampled: its ids are made and logged, and nothing else is done. */
const untraced = (logFields: TraceLogFields): RequestTrace => ({
  logFields,
  step: runStep,
  inOperation: run,
  end: nothing,
})

/**
 * The steps of a request whose only span is the server span: the operation runs as it, so the
 * calls it makes to a store outside the process are the server span's children.
 */
const serverSpanOnly = (root: Context): Pick<RequestTrace, 'step' | 'inOperation'> => ({
  step: (_name, kind, task) => (kind === 'operation' ? runAs(root, task) : task()),
  inOperation: (task) => runAs(root, task),
})

/**
 * Spans made at the service's own seams: a server span per request (continuing the caller's W3C
 * `traceparent` through the configured propagator) and, with more detail asked for (seams.ts),
 * a span per operation and one per middleware. The request's context travels in
 * `ctx.state.trace`, not through a context manager (steps.ts says why).
 */
export const createRequestTracer = (tracer: Tracer, detail: TraceDetail): RequestTracer => ({
  middlewareSpans: detail === 'middleware',
  start: (ctx) => {
    if (PROBES.has(ctx.path)) return undefined
    const parent: Context = propagation.extract(ROOT_CONTEXT, ctx.req.headers)
    const span = tracer.startSpan(ctx.method, { kind: SpanKind.SERVER }, parent)
    const logFields = logFieldsOf(span)
    if (!span.isRecording()) return untraced(logFields)
    span.setAttributes(requestAttributes(ctx))
    const method = ctx.method
    const root = trace.setSpan(parent, span)
    const steps = detail === 'request' ? serverSpanOnly(root) : stepsOf(tracer, root)
    return {
      logFields,
      step: steps.step,
      inOperation: steps.inOperation,
      end: (answer) => endServerSpan(span, method, answer),
    }
  },
})
