import { pipeline, Readable, Stream } from 'node:stream'
import type { AppContext } from '../request/app-state.js'
import { createBatch } from './batched-writes.js'

/** Statuses that never carry a body (Koa's `statuses.empty`). */
const BODILESS = new Set([204, 205, 304])

/** No body set: Koa's empty answer for `ctx.body = null`, else the status text as plain text. */
const writeNoBody = (ctx: AppContext): void => {
  const res = ctx.res
  const response = ctx.response as typeof ctx.response & { _explicitNullBody?: boolean }
  if (response._explicitNullBody === true) {
    ctx.remove('Content-Type')
    ctx.remove('Transfer-Encoding')
    ctx.length = 0
    return void res.end()
  }
  const text =
    ctx.req.httpVersionMajor >= 2 ? String(ctx.status) : ctx.message || String(ctx.status)
  if (!res.headersSent) {
    ctx.type = 'text'
    ctx.length = Buffer.byteLength(text)
  }
  res.end(text)
}

/** The body as a Node stream, when it is one or one of the web's (as Koa reads them). */
const streamOf = (body: unknown): Stream | undefined => {
  if (body instanceof Blob) return Readable.from(body.stream())
  if (body instanceof ReadableStream) return Readable.from(body)
  if (body instanceof Response) return Readable.from(body.body ?? '')
  return body instanceof Stream ? body : undefined
}

/** A stream, or a value sent as JSON, as Koa's respond sends them. */
const writeOther = (ctx: AppContext, body: unknown): void => {
  const res = ctx.res
  const stream = streamOf(body)
  if (stream !== undefined)
    return void pipeline(stream as Readable, res, (error) => {
      if (error && ctx.app.listenerCount('error') > 0) ctx.onerror(error)
    })
  const json = JSON.stringify(body)
  if (!res.headersSent) ctx.length = Buffer.byteLength(json)
  res.end(json)
}

/**
 * What Koa's `respond` does with what the app set on the context, in the same order of cases,
 * with one difference nobody outside the app sees: string and buffer bodies are written batched.
 * A test compares the bytes of both for the same requests.
 */
export const writeAnswer = () => {
  const sendBatched = createBatch()
  return (ctx: AppContext): void => {
    if (ctx.respond === false) return
    const res = ctx.res
    if (!ctx.writable) return void res.end()
    if (BODILESS.has(ctx.status)) {
      ctx.body = null
      return void res.end()
    }
    if (ctx.method === 'HEAD') {
      if (!res.headersSent && !res.hasHeader('Content-Length')) {
        const length = ctx.response.length
        if (Number.isInteger(length)) ctx.length = length
      }
      return void res.end()
    }
    const body: unknown = ctx.body
    if (typeof body === 'string' || Buffer.isBuffer(body)) return sendBatched(res, body)
    if (body === null || body === undefined) return writeNoBody(ctx)
    writeOther(ctx, body)
  }
}
