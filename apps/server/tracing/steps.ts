import {
  context,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Tracer,
} from '@opentelemetry/api'
import type { RequestTrace } from '../../../adapters/koa/index.js'

type Kind = Parameters<RequestTrace['step']>[1]

/** The middleware spans keep the names and attributes of OpenTelemetry's Koa instrumentation. */
const spanOf = (name: string, kind: Kind): [string, Attributes] =>
  kind === 'middleware'
    ? [`middleware - ${name}`, { 'koa.type': 'middleware', 'koa.name': name }]
    : [name, {}]

/**
 * The steps of one request, each a span under the innermost step still open (the server span at
 * first). Koa runs a request's middleware nested, one inside the next, so a step that starts
 * while another is open is inside it. Only the operation's handler runs in the step's context
 * (`context.with`): the store's spans find their parent there (store-spans.ts).
 */
export const stepOf = (tracer: Tracer, root: Context): RequestTrace['step'] => {
  let current = root
  return (name, kind, run) => {
    const parent = current
    const [spanName, attributes] = spanOf(name, kind)
    const span = tracer.startSpan(spanName, { kind: SpanKind.INTERNAL, attributes }, parent)
    const inner = trace.setSpan(parent, span)
    current = inner
    const done = () => {
      current = parent
      span.end()
    }
    const failed = (error: unknown) => {
      span.setStatus({ code: SpanStatusCode.ERROR, message: String(error) })
      done()
    }
    let result: ReturnType<typeof run>
    try {
      result = kind === 'operation' ? context.with(inner, run) : run()
    } catch (error) {
      failed(error)
      throw error
    }
    if (result instanceof Promise) result.then(done, failed)
    else done()
    return result
  }
}
