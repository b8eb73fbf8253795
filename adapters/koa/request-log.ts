import type { Context } from 'koa'
import type { Logger } from '../../core/index.js'

/**
 * One line per request: id, method, route template (never the URL, which may carry anything),
 * status, latency and the key's label. Store failures are warnings with their cause.
 */
export const logRequest = (
  logger: Logger,
  ctx: Context,
  requestId: string,
  started: number,
): void => {
  const failure = ctx.state.storeFailure as string | undefined
  if (failure === undefined && logger.isLevelEnabled?.('info') === false) return
  const fields = {
    requestId,
    method: ctx.method,
    route: ctx._matchedRoute ?? null,
    status: ctx.status,
    ms: Math.round((performance.now() - started) * 100) / 100,
    keyId: ctx.state.principal?.keyId ?? null,
  }
  if (failure === undefined) logger.info(fields, 'request')
  else logger.warn({ ...fields, storeFailure: failure }, 'store unavailable')
}
