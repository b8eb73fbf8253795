import type { AppContext } from './app-state.js'

/*
 * Every answer goes through Koa's `ctx.status`, `ctx.set` and `ctx.body`, and Koa (or the server
 * that drives the app as its root, see ../server/root-app.ts) sends it: middleware around the app sees and
 * shapes it after `await next()`, as in any Koa app.
 */

/** The answer is this status and this body of this media type. */
export const setAnswer = (
  ctx: AppContext,
  status: number,
  type: string,
  body: string | Buffer,
): void => {
  ctx.status = status
  // Set before the body, so that Koa keeps it rather than guessing one from the body.
  ctx.set('Content-Type', type)
  ctx.body = body
}

/** The answer is this status and this JSON text (already serialized: nothing is done twice). */
export const setJsonAnswer = (ctx: AppContext, status: number, json: string): void =>
  setAnswer(ctx, status, 'application/json', json)
