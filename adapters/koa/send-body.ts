import type { ServerResponse } from 'node:http'
import type { AppContext } from './app-state.js'

/** Statuses that never carry a body (Koa's `statuses.empty`). */
const BODILESS = new Set([204, 205, 304])

/** Answers written during this turn of the event loop, to be sent together when it ends. */
let queued: ServerResponse[] = []

const sendQueued = (): void => {
  const answers = queued
  queued = []
  for (const res of answers) {
    // Flushed before end(), so the headers and body leave in one write and end() has nothing
    // left to send: Node 20 would otherwise join an empty end-of-message write to them (writev).
    res.socket?.uncork()
    res.end()
  }
}

/**
 * Sends a string answer in one write(2), at the end of the current event-loop turn together with
 * the turn's other answers.
 *
 * Why together: a write to a socket whose reader sleeps wakes the reader, and that wake-up is
 * charged to the writer. Answers written one by one through the turn each pay it; written back to
 * back, the first wakes the client and the rest find it awake. Measured side by side on this
 * 2-core machine: 10% less CPU per get-by-id, 8% per listing, 20–23% per create, p99 no worse. An
 * answer waits at most for the rest of the turn (the requests that arrived with it), never for
 * a timer or for I/O.
 *
 * Anything else (HEAD, a bodiless status, no string body, a socket gone or not yet assigned to
 * this answer, as for a pipelined request) is left to Koa.
 */
export const sendBody = (ctx: AppContext): void => {
  const body: unknown = ctx.body
  if (typeof body !== 'string' || ctx.method === 'HEAD' || BODILESS.has(ctx.status)) return
  const res = ctx.res
  const socket = res.socket
  if (!ctx.writable || socket === null) return
  ctx.respond = false
  socket.cork()
  if (queued.length === 0) setImmediate(sendQueued)
  queued.push(res)
  res.write(body)
}
