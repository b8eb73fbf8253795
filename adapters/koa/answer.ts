import type { ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import type { AppContext } from './app-state.js'

/*
 * An answer is kept on the context while it is decided (its headers and its body) and sent once,
 * at the end of `frame`: every answer leaves through `sendAnswer`, none through Koa's `respond`
 * (see koa-app.ts).
 *
 * Why not `res.setHeader` and Koa's `ctx.set` and `ctx.body` as each piece is decided: Node
 * validates, lowercases and files each header in a dictionary, then walks the dictionary again
 * to write them; Koa adds its own checks, and `ctx.body` looks the Content-Type up again and
 * sets Content-Length as one more header. A get-by-id carries ten headers of its own. Given to
 * `writeHead` as one list, Node validates each once and writes them in order: measured side by
 * side, 14–16% less CPU per get-by-id (bench/HISTORY.md).
 */

/** Statuses that never carry a body (Koa's `statuses.empty`). */
const BODILESS = new Set([204, 205, 304])

/** Name/value pairs, the form `writeHead` takes. */
const headersOf = (ctx: AppContext): string[] => (ctx.state.answerHeaders ??= [])

/**
 * Sets one header of the answer. A later value replaces an earlier one, names compared without
 * regard to case, as with `res.setHeader`. Headers that other middleware put on `ctx.res`
 * directly (CORS's, say) are kept; one of the same name set here wins.
 */
export const setAnswerHeader = (ctx: AppContext, name: string, value: string): void => {
  const headers = headersOf(ctx)
  for (let i = 0; i < headers.length; i += 2) {
    const known = headers[i] as string
    if (known.length === name.length && known.toLowerCase() === name.toLowerCase()) {
      headers[i + 1] = value
      return
    }
  }
  headers.push(name, value)
}

export const setAnswerHeaders = (ctx: AppContext, headers: Readonly<Record<string, string>>) => {
  for (const name in headers) setAnswerHeader(ctx, name, headers[name] as string)
}

/** The answer is this status and this JSON text (already serialized: nothing is done twice). */
export const setJsonAnswer = (ctx: AppContext, status: number, json: string): void =>
  setAnswer(ctx, status, 'application/json', json)

/** The answer is this status and this body of this media type. */
export const setAnswer = (
  ctx: AppContext,
  status: number,
  type: string,
  body: string | Buffer,
): void => {
  ctx.status = status
  setAnswerHeader(ctx, 'Content-Type', type)
  ctx.state.answerBody = body
}

/** Answers written during this turn of the event loop, to be sent together when it ends. */
let queued: ServerResponse[] = []

/**
 * A client that does not take its answer (the kernel's buffer full, the rest waiting here) would
 * hold its connection, never idle, for as long as it liked. Once nothing more leaves for the
 * server's request timeout, the connection closes: Node's socket timeout counts any progress of a
 * partly written answer, and with no listener of ours its server destroys the socket.
 */
const closeIfNotTaken = (res: ServerResponse): void => {
  const server = (res.req.socket as Socket & { server?: { requestTimeout?: number } }).server
  const ms = server?.requestTimeout ?? 0
  // On the socket now, or when the answer gets it (a pipelined one waits for those before it).
  if (ms > 0) res.setTimeout(ms)
}

const sendQueued = (): void => {
  const answers = queued
  queued = []
  for (const res of answers) {
    const socket = res.socket
    // Flushed before end(), so the headers and body leave in one write and end() has nothing
    // left to send: Node 20 would otherwise join an empty end-of-message write to them (writev).
    socket?.uncork()
    res.end()
    if (socket !== null && socket.writableLength > 0) closeIfNotTaken(res)
  }
}

/**
 * Sends the answer, in one write(2) at the end of the current event-loop turn together with the
 * turn's other answers.
 *
 * Why together: a write to a socket whose reader sleeps wakes the reader, and that wake-up is
 * charged to the writer. Answers written one by one through the turn each pay it; written back to
 * back, the first wakes the client and the rest find it awake. Measured side by side on this
 * 2-core machine: 10% less CPU per get-by-id, 8% per listing, 20–23% per create, p99 no worse. An
 * answer waits at most for the rest of the turn (the requests that arrived with it), never for
 * a timer or for I/O.
 *
 * Written at once instead: a bodiless status (204, 205, 304: no Content-Type, no length, no
 * body), a HEAD (the length of the body it would have, no body), and an answer whose socket is
 * not yet its own (a pipelined request: Node holds the bytes until the answers before it are
 * out). An answer already started is only ended; to a client that went away nothing is sent.
 */
export const sendAnswer = (ctx: AppContext): void => {
  const res = ctx.res
  ctx.respond = false
  // The client went away (or the answer was already ended): nothing can be sent.
  if (!ctx.writable) return
  if (res.headersSent) return void res.end()
  const headers = headersOf(ctx)
  if (BODILESS.has(ctx.status)) {
    res.writeHead(ctx.status, headers)
    return void res.end()
  }
  const body = ctx.state.answerBody ?? ''
  setAnswerHeader(ctx, 'Content-Length', String(Buffer.byteLength(body)))
  res.writeHead(ctx.status, headers)
  const socket = res.socket
  if (ctx.method === 'HEAD') return void res.end()
  if (socket === null) {
    closeIfNotTaken(res)
    return void res.end(body)
  }
  socket.cork()
  if (queued.length === 0) setImmediate(sendQueued)
  queued.push(res)
  res.write(body)
}
