import { randomUUID } from 'node:crypto'
import type { IncomingMessage } from 'node:http'

const SANE = /^[A-Za-z0-9._:-]{1,128}$/

/** A caller's X-Request-Id when it is short and plain (so it is safe to log), else a new one. */
export const requestIdOf = (header: string | string[] | undefined): string =>
  typeof header === 'string' && SANE.test(header) ? header : randomUUID()

/** Kept on the request itself: a WeakMap entry per request was 2% of a create's allocations. */
const REQUEST_ID = Symbol('requestId')
type Identified = IncomingMessage & { [REQUEST_ID]?: string }

/**
 * The id of a request, the same wherever it is asked for: the app's answer and log line, and a
 * refusal written outside the app (a body that timed out, say) all name the request alike.
 */
export const requestIdFor = (req: Identified): string =>
  (req[REQUEST_ID] ??= requestIdOf(req.headers['x-request-id']))
