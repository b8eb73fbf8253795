import type { AppContext } from './app-state.js'

/** Statuses that never carry a body (Koa's `statuses.empty`). */
const BODILESS = new Set([204, 205, 304])

/**
 * Sends a string answer in one write(2). Koa ends with `res.end(body)`, which on Node 20 corks
 * the socket and sends the headers and body together with an empty end-of-message write: a
 * writev(2) of two buffers, copied first (Node 24 writes once). Here the body is written, the
 * socket flushed at once, and end() finds nothing left to send. Anything else (HEAD, a bodiless
 * status, no string body, a socket gone) is left to Koa.
 */
export const sendBody = (ctx: AppContext): void => {
  const body: unknown = ctx.body
  if (typeof body !== 'string' || ctx.method === 'HEAD' || BODILESS.has(ctx.status)) return
  if (!ctx.writable) return
  const res = ctx.res
  ctx.respond = false
  res.write(body)
  // write() corked the socket until the next tick: flushed now, the headers and body go out in
  // one write, and end() has nothing left to join to them.
  res.socket?.uncork()
  res.end()
}
