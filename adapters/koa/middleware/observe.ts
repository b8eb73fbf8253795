import type { Next } from 'koa'
import type { AppContext } from '../app-state.js'

/**
 * Told once per request, after the answer is decided: the route template (`none` when no route
 * took the request: 401, 404, the document, the docs page, the probes), the method, the status,
 * the seconds spent, and whether the client went away before it could be answered.
 */
export type RequestObserver = (
  route: string,
  method: string,
  status: number,
  seconds: number,
  aborted: boolean,
) => void

/** Outermost, so that it sees the final status, the 500 of an unexpected exception included. */
export const observe =
  (observer: RequestObserver) =>
  async (ctx: AppContext, next: Next): Promise<void> => {
    const started = performance.now()
    await next()
    const route = ctx._matchedRoute
    observer(
      typeof route === 'string' ? route : 'none',
      ctx.method,
      ctx.status,
      (performance.now() - started) / 1000,
      // Not answered (frame sends JSON answers itself, see answer.ts) and the socket is no
      // longer writable, so Koa cannot answer either: the client went away.
      !ctx.res.writableEnded && !ctx.writable,
    )
  }
