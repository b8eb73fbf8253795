import type { IncomingMessage } from 'node:http'
import type { AppContext } from '../request/app-state.js'
import { setHeader } from '../response/answer/index.js'

const hasBody = (req: IncomingMessage): boolean =>
  req.headers['transfer-encoding'] !== undefined ||
  (req.headers['content-length'] !== undefined && req.headers['content-length'] !== '0')

/**
 * An answer given before the body was read (401, 404, 405, 413, 415 ...) closes the connection:
 * otherwise Node would read and discard whatever the client declared, megabytes from anyone,
 * and a slow body would later earn a second, unsolicited 408 on the same connection.
 */
export const closeIfBodyUnread = (ctx: AppContext): void => {
  // Taken whole, possibly before Node marked the request complete (see json-body.ts).
  const readWhole = ctx.req.complete || ctx.state.bodyTaken === true
  if (hasBody(ctx.req) && !readWhole) setHeader(ctx, 'Connection', 'close')
}

const ABORT_CODES = new Set(['ECONNRESET', 'ERR_STREAM_PREMATURE_CLOSE', 'ECONNABORTED', 'EPIPE'])

/** Whether a failure while handling `req` comes from the client leaving before it was whole. */
export const isClientAbort = (req: IncomingMessage, error: unknown): boolean => {
  const code = (error as { code?: unknown } | null)?.code
  return (req.destroyed && !req.complete) || (typeof code === 'string' && ABORT_CODES.has(code))
}
