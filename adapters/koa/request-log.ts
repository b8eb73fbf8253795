import type { AppContext } from './app-state.js'
import type { Logger } from '../../core/index.js'

/**
 * One line per request: id, method, route template (never the URL, which may carry anything),
 * status, latency and the key's label. Store failures are warnings with their cause.
 */
export const logRequest = (
  logger: Logger,
  ctx: AppContext,
  requestId: string,
  started: number,
): void => {
  const failure = ctx.state.storeFailure as string | undefined
  if (failure === undefined && logger.isLevelEnabled?.('info') === false) return
  const fields = fieldsOf(ctx, requestId, started)
  if (failure === undefined) logger.info(fields, 'request')
  else logger.warn({ ...fields, storeFailure: failure }, 'store unavailable')
}

const fieldsOf = (ctx: AppContext, requestId: string, started: number) => ({
  requestId,
  method: ctx.method,
  route: ctx._matchedRoute ?? null,
  status: ctx.status,
  ms: Math.round((performance.now() - started) * 100) / 100,
  keyId: ctx.state.principal?.keyId ?? null,
})

/**
 * A client that disconnected or was timed out before its request was whole: logged at info with
 * `outcome: "client_aborted"` and nginx's 499, so it never counts as a server error.
 */
export const logClientAborted = (
  logger: Logger,
  ctx: AppContext,
  requestId: string,
  started: number,
): void =>
  logger.info(
    { ...fieldsOf(ctx, requestId, started), status: 499, outcome: 'client_aborted' },
    'client aborted',
  )
