import type { Next } from 'koa'
import { matchedRoute } from '../../koa-internals.js'
import type { AppContext } from '../../request/app-state.js'

/**
 * Told once per request, after the answer is decided: the route template (`none` when no route
 * took the request: 401, 404, the document, the docs page, the probes), the method, the status
 * (499 when the client went away first), the seconds spent, whether the client went away
 * before it could be answered, and whether the answer is a 503 because a store (of pets, or of
 * keys) is unavailable: not the 503 of an instance that is shutting down.
 */
export type RequestObserver = (
  route: string,
  method: string,
  status: number,
  seconds: number,
  aborted: boolean,
  storeUnavailable: boolean,
) => void

/** Outermost, so that it sees the final status, the 500 of an unexpected exception included. */
export const observe = (observer: RequestObserver) => {
  const observeRequest = async (ctx: AppContext, next: Next): Promise<void> => {
    const started = performance.now()
    await next()
    const route = matchedRoute(ctx)
    // The answer is sent after the middleware, and the socket is no longer writable, so it cannot
    // be: the client went away, or its request timed out.
    const aborted = !ctx.res.writableEnded && !ctx.writable
    observer(
      route ?? 'none',
      ctx.method,
      // As in the log: nginx's 499, not the status Koa starts every request with (404).
      aborted ? 499 : ctx.status,
      (performance.now() - started) / 1000,
      aborted,
      // The responder marks a store failure for the log: the same mark, so both agree.
      !aborted && ctx.state.storeFailure !== undefined,
    )
  }
  return observeRequest
}
