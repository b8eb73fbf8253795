import type { Context, Next } from 'koa'
import type { Logger } from '../../../core/index.js'
import type { Problem } from '../problem.js'
import { requestIdOf } from '../request-id.js'
import { logRequest } from '../request-log.js'

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
      logger.error({ requestId, err: error }, 'unexpected error')
      problem(ctx, { _tag: 'Internal' })
    }
    logRequest(logger, ctx, requestId, started)
  }
