import type { Next } from 'koa'
import type { AppContext } from '../app-state.js'
import type { Responder } from '../responder.js'
import type { Logger } from '../../../core/index.js'
import { requestIdFor } from '../request-id.js'
import { sendAnswer } from '../answer.js'
import { logClientAborted, logRequest, type RequestLine } from '../request-log.js'
import { closeIfBodyUnread, isClientAbort } from '../unread-body.js'

/**
 * Outermost: the headers every answer carries, the request id, the log line, and the one place
 * where an unexpected exception becomes a 500 `internal` (its detail goes to the log only).
 */
export const frame =
  (logger: Logger, respond: Responder, requestLine?: RequestLine) =>
  (ctx: AppContext, next: Next): Promise<void> => {
    const started = performance.now()
    const requestId = requestIdFor(ctx.req)
    // The first headers of the answer (see answer.ts): nothing inside has set one yet.
    ctx.state.answerHeaders = [
      'X-Request-Id',
      requestId,
      'Cache-Control',
      'no-store',
      'X-Content-Type-Options',
      'nosniff',
    ]
    const finish = (): void => {
      closeIfBodyUnread(ctx)
      logRequest(logger, requestLine, ctx, requestId, started)
      sendAnswer(ctx)
    }
    // `next` never throws: koa-compose turns a throw into a rejection.
    return next().then(finish, (error: unknown) => {
      // The client went away (or timed out) mid-request: its doing, not a server error.
      if (isClientAbort(ctx.req, error)) {
        ctx.respond = false
        return logClientAborted(logger, ctx, requestId, started)
      }
      respond.internal(ctx, error, requestId)
      finish()
    })
  }
