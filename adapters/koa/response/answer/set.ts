import type { AppContext } from '../../request/app-state.js'
import { INT64_STRING_TYPE, asksInt64Strings } from '../../request/int64-form.js'

/*
 * Every answer goes through Koa's `ctx.status`, the response's headers (`setHeader` below) and
 * `ctx.body`, and Koa (or the server that drives the app as its root, see finish.ts) sends it:
 * middleware around the app sees and shapes it after `await next()`, as in any Koa app.
 */

/**
 * The one header setter of the app and of the root writer: `ctx.set(name, value)` for a string
 * value, written straight to Node's `res.setHeader`. That is where Koa's own setter writes and
 * where Koa reads headers from (`ctx.response.get`, `ctx.response.headers`, and whatever
 * middleware around the app sees); Koa's reaches it through a delegate and an argument check,
 * which on the API's request path cost more than the header itself (bench/HISTORY.md). Like
 * Koa's, it does nothing once the headers are sent. A header whose values add up (Vary) goes
 * through Koa's `ctx.vary`, which merges with what is there instead of replacing it.
 */
export const setHeader = (ctx: AppContext, name: string, value: string): void => {
  if (!ctx.res.headersSent) ctx.res.setHeader(name, value)
}

/** `ctx.set(headers)` for string values, as {@link setHeader}. */
export const setHeaders = (ctx: AppContext, headers: Readonly<Record<string, string>>): void => {
  if (ctx.res.headersSent) return
  for (const name of Object.keys(headers)) ctx.res.setHeader(name, headers[name]!)
}

/** `ctx.remove(name)`: the header is not sent, unless the headers are sent already. */
export const removeHeader = (ctx: AppContext, name: string): void => {
  if (!ctx.res.headersSent) ctx.res.removeHeader(name)
}

/** `ctx.length = bytes`: Content-Length, unless the answer is sent chunked (as Koa's setter). */
export const setLength = (ctx: AppContext, bytes: number): void => {
  if (!ctx.res.hasHeader('Transfer-Encoding')) setHeader(ctx, 'Content-Length', String(bytes))
}

/**
 * The headers every answer carries, the app's and the refusals written outside it alike: the
 * request's id, never cached, and never sniffed as another media type than the one sent.
 */
export const everyAnswerHeaders = (requestId: string): Readonly<Record<string, string>> => ({
  'X-Request-Id': requestId,
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
})

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

/** The answer is this status alone (204, 304): Koa sends it with no body. */
export const setEmptyAnswer = (ctx: AppContext, status: number): void => {
  ctx.status = status
}

/**
 * Answers `value` in the form the request's `Accept` asks for: written by `plain` as
 * `application/json` (the default), or by `strings` in the string form.
 */
export const answerInForm = <A>(
  ctx: AppContext,
  status: number,
  value: A,
  plain: (value: A) => string,
  strings: (value: A) => string,
): void =>
  asksInt64Strings(ctx.req.headers.accept)
    ? setAnswer(ctx, status, INT64_STRING_TYPE, strings(value))
    : setJsonAnswer(ctx, status, plain(value))
