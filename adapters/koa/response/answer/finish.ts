import { Readable, Stream } from 'node:stream'
import type { AppContext } from '../../request/app-state.js'
import { removeHeader, setHeader, setLength } from './set.js'

/** What is left to send once the answer's status and headers are settled: nothing, or this. */
export type Payload = null | string | Buffer | Stream

/** Statuses that never carry a body (Koa's `statuses.empty`). */
const BODILESS = new Set([204, 205, 304])

/** No body set: Koa's empty answer for `ctx.body = null`, else the status text as plain text. */
const noBody = (ctx: AppContext): string | null => {
  const response = ctx.response as typeof ctx.response & { _explicitNullBody?: boolean }
  if (response._explicitNullBody === true) {
    removeHeader(ctx, 'Content-Type')
    removeHeader(ctx, 'Transfer-Encoding')
    setLength(ctx, 0)
    return null
  }
  const text =
    ctx.req.httpVersionMajor >= 2 ? String(ctx.status) : ctx.message || String(ctx.status)
  if (!ctx.res.headersSent) {
    setHeader(ctx, 'Content-Type', 'text/plain; charset=utf-8')
    setLength(ctx, Buffer.byteLength(text))
  }
  return text
}

/** The body as a Node stream, when it is one or one of the web's (as Koa reads them). */
const streamOf = (body: unknown): Stream | undefined => {
  if (body instanceof Blob) return Readable.from(body.stream())
  if (body instanceof ReadableStream) return Readable.from(body)
  if (body instanceof Response) return Readable.from(body.body ?? '')
  return body instanceof Stream ? body : undefined
}

/** A stream as it is; any other value as JSON text, as Koa's respond sends it. */
const otherBody = (ctx: AppContext, body: unknown): Payload => {
  const stream = streamOf(body)
  if (stream !== undefined) return stream
  const json = JSON.stringify(body)
  if (!ctx.res.headersSent) setLength(ctx, Buffer.byteLength(json))
  return json
}

/**
 * What Koa's `respond` decides from what the app set on the context, in the same order of cases:
 * the headers it adds or removes, and what follows them. `undefined` when the app answered by
 * itself (`ctx.respond = false`); `null` when the answer ends with its headers. Sending it is left
 * to the server that drives the app as its root (../../server/root-answer.ts); a test compares
 * the bytes with Koa's own for the same requests.
 */
export const finishAnswer = (ctx: AppContext): Payload | undefined => {
  if (ctx.respond === false) return undefined
  if (!ctx.writable) return null
  if (BODILESS.has(ctx.status)) {
    ctx.body = null
    return null
  }
  if (ctx.method === 'HEAD') {
    if (!ctx.res.headersSent && !ctx.res.hasHeader('Content-Length')) {
      const length = ctx.response.length
      if (Number.isInteger(length)) setLength(ctx, length)
    }
    return null
  }
  const body: unknown = ctx.body
  if (typeof body === 'string' || Buffer.isBuffer(body)) return body
  if (body === null || body === undefined) return noBody(ctx)
  return otherBody(ctx, body)
}
