import Koa from 'koa'
import type { AppContext, AppState } from './app-state.js'

/**
 * Koa, less two steps of its per-request `handleRequest` that this app has no use for:
 *
 * - `onFinished(res, ctx.onerror)` (the on-finished package) adds listeners to the response and
 *   its socket for every request and removes them when it ends, only so that an error of the
 *   response stream after the answer is reported through `ctx.onerror` (to stderr, as a stack).
 *   Measured side by side (two servers loaded at once on one core): 10% of the CPU of a listing
 *   and of a create, 23% of a get-by-id. A client that goes away mid-request is logged by `frame`
 *   instead.
 * - `respond(ctx)`: every answer is sent by `sendAnswer` (answer.ts), bodiless, HEAD and the docs
 *   page's included, and it sets `ctx.respond = false`, so Koa's `respond` would do nothing.
 *
 * What stays as Koa has it: `app.callback()`, the context, the middleware chain, the default 404
 * status, and `ctx.onerror` for an exception that escapes the middleware. A test holds Koa to
 * still having the `handleRequest(ctx, fnMiddleware)` this replaces.
 */
export class KoaApp extends Koa<AppState> {
  handleRequest(ctx: AppContext, fnMiddleware: (ctx: AppContext) => Promise<void>): Promise<void> {
    ctx.res.statusCode = 404
    return fnMiddleware(ctx).catch((error: Error) => ctx.onerror(error))
  }
}
