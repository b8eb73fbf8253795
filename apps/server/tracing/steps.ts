import {
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Tracer,
} from '@opentelemetry/api'
import type { RequestTrace } from '../../../adapters/koa/index.js'

type Kind = Parameters<RequestTrace['step']>[1]

/**
 * The operation whose code runs at this moment, synchronously: set only while an operation's
 * handler or a task it starts is running, and put back before anything waits, so that it never
 * names another request's. The store's spans read it (store-spans.ts). It stands in for the
 * context manager, whose promise hooks cost Node 20 as much as the rest of a request.
 */
let running: Operation | undefined

/**
 * An operation's context, or what makes it when first asked: a request traced by its server span
 * alone makes its context only when a store call asks for it (request-spans.ts).
 */
export type Operation = Context | (() => Context)

export const runningOperation = (): Context | undefined =>
  typeof running === 'function' ? running() : running

/** `run` with `operation` as the running one. */
export const runAs = <T>(operation: Operation, run: () => T): T => {
  const before = running
  running = operation
  try {
    return run()
  } finally {
    running = before
  }
}

/** The middleware spans keep the names and attributes of OpenTelemetry's Koa instrumentation. */
const spanOf = (name: string, kind: Kind): [string, Attributes] =>
  kind === 'middleware'
    ? [`middleware - ${name}`, { 'koa.type': 'middleware', 'koa.name': name }]
    : [name, {}]

/**
 * The steps of one request, each a span under the innermost step still open (the server span at
 * first). Koa runs a request's middleware nested, one inside the next, so a step that starts
 * while another is open is inside it. `inOperation` runs a task as part of the open operation.
 */
export const stepsOf = (
  tracer: Tracer,
  root: Context,
): Pick<RequestTrace, 'step' | 'inOperation'> => {
  let current = root
  let operation = root
  const step: RequestTrace['step'] = (name, kind, run) => {
    const parent = current
    const [spanName, attributes] = spanOf(name, kind)
    const span = tracer.startSpan(spanName, { kind: SpanKind.INTERNAL, attributes }, parent)
    const inner = trace.setSpan(parent, span)
    current = inner
    if (kind === 'operation') operation = inner
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
      result = kind === 'operation' ? runAs(inner, run) : run()
    } catch (error) {
      failed(error)
      throw error
    }
    if (result instanceof Promise) result.then(done, failed)
    else done()
    return result
  }
  return { step, inOperation: (run) => runAs(operation, run) }
}
