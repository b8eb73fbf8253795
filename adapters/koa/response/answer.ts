import type { AppContext } from '../request/app-state.js'

/*
 * Every answer goes through Koa's `ctx.status`, the response's headers (`setHeader` below) and
 * `ctx.body`, and Koa (or the server that drives the app as its root, see ../server/root-app.ts)
 * sends it: middleware around the app sees and shapes it after `await next()`, as in any Koa app.
 */

/**
 * `ctx.set(name, value)` for a string value, written straight to Node's `res.setHeader`: that is
 * where Koa keeps an answer's headers and reads them from (`ctx.response.get`,
 * `ctx.response.headers`, and whatever middleware around the app sees). Koa's setter reaches the same call through a
 * delegate and an argument check, which on the API's request path cost more than the header
 * itself (bench/HISTORY.md). Like Koa's, it does nothing once the headers are sent.
 */
export const setHeader = (ctx: AppContext, name: string, value: string): void => {
  if (!ctx.res.headersSent) ctx.res.setHeader(name, value)
}

/** `ctx.set(headers)` for string values, as {@link setHeader}. */
export const setHeaders = (ctx: AppContext, headers: Readonly<Record<string, string>>): void => {
  if (ctx.res.headersSent) return
  for (const name of Object.keys(headers)) ctx.res.setHeader(name, headers[name]!)
}

/** The answer is this status and this body of this media type. */
export const setAnswer = (
  ctx: AppContext,
  status: number,
  type: string,
  body: string | Buffer,
): void => {
  ctx.status = status
  // Set before the body, so that Koa keeps it rather than guessing one from the body.
  setHeader(ctx, 'Content-Type', type)
  ctx.body = body
}

/** The answer is this status and this JSON text (already serialized: nothing is done twice). */
export const setJsonAnswer = (ctx: AppContext, status: number, json: string): void =>
  setAnswer(ctx, status, 'application/json', json)
