import type { Next } from 'koa'
import { matchedRoute } from '../../koa-internals.js'
import type { AppContext, AppState } from '../../request/app-state.js'
import type { RequestTracer } from '../../request/request-trace.js'

/**
 * Outermost: starts the request's trace and ends it once the answer is decided, with the final
 * status (499 when the client went away first, as in the log) and the route template.
 */
export const traceRequests = (tracer: RequestTracer) => {
  const traceRequest = (ctx: AppContext, next: Next): Promise<void> => {
    const trace = tracer.start(ctx)
    if (trace === undefined) return next()
    ctx.state.trace = trace
    // Most requests of a sampled tracing are not recorded: they cost no promise of their own.
    if (trace.recording === false) return next()
    const end = () => {
      const aborted = !ctx.res.writableEnded && !ctx.writable
      trace.end({ status: aborted ? 499 : ctx.status, route: matchedRoute(ctx) })
    }
    return next().then(end, (error: unknown) => {
      end()
      throw error
    })
  }
  return traceRequest
}

/** `middleware` run as a step of the request's trace, when it has one; under the same name. */
export const asTraceStep = <C extends { readonly state: AppState }, R>(
  name: string,
  kind: 'operation' | 'middleware',
  middleware: (ctx: C, next: Next) => R,
): ((ctx: C, next: Next) => R) => {
  const step = (ctx: C, next: Next): R => {
    const trace = ctx.state.trace
    return trace === undefined || trace.recording === false
      ? middleware(ctx, next)
      : trace.step(name, kind, () => middleware(ctx, next))
  }
  return Object.defineProperty(step, 'name', { value: middleware.name })
}
