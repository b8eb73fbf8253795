import { randomUUID } from 'node:crypto'
import type { IncomingMessage } from 'node:http'

const SANE = /^[A-Za-z0-9._:-]{1,128}$/

/** A caller's X-Request-Id when it is short and plain (so it is safe to log), else a new one. */
export const requestIdOf = (header: string | string[] | undefined): string =>
  typeof header === 'string' && SANE.test(header) ? header : randomUUID()

const given = new WeakMap<IncomingMessage, string>()

/**
 * The id of a request, the same wherever it is asked for: the app's answer and log line, and a
 * refusal written outside the app (a body that timed out, say) all name the request alike.
 */
export const requestIdFor = (req: IncomingMessage): string => {
  let id = given.get(req)
  if (id === undefined) given.set(req, (id = requestIdOf(req.headers['x-request-id'])))
  return id
}
