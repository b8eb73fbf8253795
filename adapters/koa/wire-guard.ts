import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http'
import { answerError } from './client-error.js'

const hostCount = (raw: ReadonlyArray<string>): number => {
  let n = 0
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i] as string
    // The length first: most names are not four letters, and lower-casing each one allocates.
    if (name.length === 4 && name.toLowerCase() === 'host') n++
  }
  return n
}

/**
 * Exactly one Host on HTTP/1.1 (RFC 9112 §3.2), at most one on 1.0. Node's own check answers
 * without a body and lets a repeated Host through, so the server turns it off and checks here.
 */
export const guardHost =
  (listener: RequestListener): RequestListener =>
  (req: IncomingMessage, res: ServerResponse) => {
    const hosts = hostCount(req.rawHeaders)
    if (hosts > 1 || (hosts === 0 && req.httpVersion === '1.1'))
      return answerError(res, 'bad_request', 'the request must carry exactly one Host header')
    return listener(req, res)
  }

/** Node calls this for an `Expect` other than 100-continue: 417 with the Error body. */
export const refuseExpectation = (_req: IncomingMessage, res: ServerResponse): void =>
  answerError(res, 'expectation_failed', 'only Expect: 100-continue is supported')
