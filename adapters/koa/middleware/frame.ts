import type { Context, Next } from 'koa'
import type { Logger } from '../../../core/index.js'
import type { Problem } from '../problem.js'
import { requestIdOf } from '../request-id.js'
import { logClientAborted, logRequest } from '../request-log.js'
import { closeIfBodyUnread, isClientAbort } from '../unread-body.js'

/**
 * Outermost: the headers every answer carries, the request id, the log line, and the one place
 * where an unexpected exception becomes a 500 `internal` (its detail goes to the log only).
 */
export const frame =
  (logger: Logger, problem: (ctx: Context, p: Problem) => void) =>
  async (ctx: Context, next: Next): Promise<void> => {
    const started = performance.now()
    const requestId = requestIdOf(ctx.req.headers['x-request-id'])
    ctx.res.setHeader('X-Request-Id', requestId)
    ctx.res.setHeader('Cache-Control', 'no-store')
    ctx.res.setHeader('X-Content-Type-Options', 'nosniff')
    try {
      await next()
    } catch (error) {
      // The client went away (or timed out) mid-request: its doing, not a server error.
      if (isClientAbort(ctx.req, error)) {
        ctx.respond = false
        return logClientAborted(logger, ctx, requestId, started)
      }
      logger.error({ requestId, err: error }, 'unexpected error')
      problem(ctx, { _tag: 'Internal' })
    }
    closeIfBodyUnread(ctx)
    logRequest(logger, ctx, requestId, started)
  }
