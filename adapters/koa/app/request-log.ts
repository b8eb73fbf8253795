import type { AppContext } from '../request/app-state.js'
import type { Logger } from '../../../core/index.js'
import { matchedRoute } from '../koa-internals.js'
import type { TraceLogFields } from '../request/request-trace.js'

/**
 * What the log says of a request: never the URL, the body or a header value. With a tracer, the
 * ids of its trace come first (`trace_id`, `span_id`, `trace_flags`).
 */
export type RequestRecord = Partial<TraceLogFields> & {
  readonly requestId: string
  readonly method: string
  /** The route template (`/v1/pets/:petId`), null when no route took the request. */
  readonly route: string | null
  readonly status: number
  readonly ms: number
  /** The key's label, null when no key was accepted. */
  readonly keyId: string | null
  /** The client's address (the peer, or what trusted proxies say; see TRUST_PROXY and `trustProxy`). */
  readonly client: string
}

/**
 * Writes the `info` line of a request that went well, given by the composition root when it
 * has a faster way than `logger.info(record, 'request')`, which is what is used otherwise.
 */
export type RequestLine = (record: RequestRecord) => void

/**
 * One line per request: id, method, route template (never the URL, which may carry anything),
 * status, latency and the key's label. Store failures are warnings with their cause.
 */
export const logRequest = (
  logger: Logger,
  requestLine: RequestLine | undefined,
  ctx: AppContext,
  requestId: string,
  started: number,
  /** By the app's rules (its `trustProxy`), which a host's `ctx.ip` need not follow. */
  client: string,
): void => {
  const failure = ctx.state.storeFailure as string | undefined
  if (failure === undefined && requestLine !== undefined)
    return requestLine(recordOf(ctx, requestId, started, client))
  if (failure === undefined && logger.isLevelEnabled?.('info') === false) return
  const record = recordOf(ctx, requestId, started, client)
  if (failure === undefined) logger.info(record, 'request')
  else logger.warn({ ...record, storeFailure: failure }, 'store unavailable')
}

const recordOf = (
  ctx: AppContext,
  requestId: string,
  started: number,
  client: string,
): RequestRecord => {
  const route = matchedRoute(ctx) ?? null
  const ms = Math.round((performance.now() - started) * 100) / 100
  const keyId = ctx.state.principal?.keyId ?? null
  const ids = ctx.state.trace?.logFields
  // Two literals, not a spread: copying the record key by key would cost every traced request.
  return ids === undefined
    ? { requestId, method: ctx.method, route, status: ctx.status, ms, keyId, client }
    : {
        trace_id: ids.trace_id,
        span_id: ids.span_id,
        trace_flags: ids.trace_flags,
        requestId,
        method: ctx.method,
        route,
        status: ctx.status,
        ms,
        keyId,
        client,
      }
}

/**
 * A client that disconnected or was timed out before its request was whole: logged at info with
 * `outcome: "client_aborted"` and nginx's 499, so it never counts as a server error.
 */
export const logClientAborted = (
  logger: Logger,
  ctx: AppContext,
  requestId: string,
  started: number,
  client: string,
): void =>
  logger.info(
    { ...recordOf(ctx, requestId, started, client), status: 499, outcome: 'client_aborted' },
    'client aborted',
  )
