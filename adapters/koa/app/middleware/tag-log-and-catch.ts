import type { Next } from 'koa'
import type { AppContext } from '../../request/app-state.js'
import type { Logger } from '../../../../core/index.js'
import { everyAnswerHeaders, setHeaders, type Responder } from '../../response/answer/index.js'
import { requestIdOf } from '../../request/request-id.js'
import { logClientAborted, logRequest, type RequestLine } from '../request-log.js'
import { closeIfBodyUnread, isClientAbort } from '../unread-body.js'
import { isProbe } from './probes.js'
import type { ClientOf } from '../../request/client-address.js'

/**
 * Outermost: the headers every answer carries, the request id, the log line, and the one place
 * where an unexpected exception becomes a 500 `internal` (its detail goes to the log only).
 * A probe that succeeded is logged only with `logProbes`: a load balancer checks every instance
 * several times a second, which would bury the requests.
 */
export const tagLogAndCatch = (
  logger: Logger,
  respond: Responder,
  clientOf: ClientOf,
  requestLine?: RequestLine,
  logProbes = false,
) => {
  const tagLogAndCatch = (ctx: AppContext, next: Next): Promise<void> => {
    const started = performance.now()
    const requestId = requestIdOf(ctx.req.headers['x-request-id'])
    setHeaders(ctx, everyAnswerHeaders(requestId))
    const finish = (): void => {
      closeIfBodyUnread(ctx)
      if (!logProbes && ctx.status < 300 && isProbe(ctx)) return
      logRequest(logger, requestLine, ctx, requestId, started, clientOf(ctx.state, ctx.req))
    }
    // `next` never throws: koa-compose turns a throw into a rejection.
    return next().then(finish, (error: unknown) => {
      // The client went away (or timed out) mid-request: its doing, not a server error. Nothing
      // can be sent; a refusal written by the server (a 408, say) may be on its way already.
      if (isClientAbort(ctx.req, error)) {
        ctx.respond = false
        return logClientAborted(logger, ctx, requestId, started, clientOf(ctx.state, ctx.req))
      }
      respond.internal(ctx, error, requestId)
      finish()
    })
  }
  return tagLogAndCatch
}
