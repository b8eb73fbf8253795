import type { ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import { pipeline, type Readable, type Stream } from 'node:stream'
import type { AppContext } from '../request/app-state.js'
import { finishAnswer } from '../response/answer/index.js'
import { createBatch } from './batched-writes.js'

/** A stream body piped to the socket; a failure of it is reported as Koa's respond does. */
const pipeStream = (ctx: AppContext, stream: Stream, res: ServerResponse): void =>
  void pipeline(stream as Readable, res, (error) => {
    if (error && ctx.app.listenerCount('error') > 0) ctx.onerror(error)
  })

/**
 * Sends what the app set on the context, as Koa's `respond` would: the answer is settled by
 * `finishAnswer` (the same module the app writes its answers with), and only the sending is
 * done here, with one difference nobody outside the app sees: text and bytes are written
 * batched (batched-writes.ts). A test compares the bytes of both for the same requests.
 */
export const writeAnswer = (waiting?: (socket: Socket) => void) => {
  const sendBatched = createBatch(waiting)
  return (ctx: AppContext): void => {
    const payload = finishAnswer(ctx)
    if (payload === undefined) return
    const res = ctx.res
    if (typeof payload === 'string' || Buffer.isBuffer(payload)) return sendBatched(res, payload)
    if (payload === null) return void res.end()
    pipeStream(ctx, payload, res)
  }
}
