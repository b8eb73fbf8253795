import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Duplex } from 'node:stream'
import { answerError, rawErrorAnswer } from '../response/answer/index.js'
import { afterAnswers, refuseAndClose } from './raw-error-answer.js'
import { requestIdOf } from '../request/request-id.js'
import { isServedVersion, VERSION_REFUSAL } from './http-version.js'

/**
 * Whether the request's `Expect` is exactly `100-continue` (any case, spaces around it). Node
 * takes any value in which the word appears for it (`100-continue-x`, `foo, 100-continue`), and
 * runs the request; RFC 9110 §10.1.1 allows 417 for any expectation it does not know.
 */
export const expectsContinue = (req: IncomingMessage): boolean =>
  req.headers.expect?.trim().toLowerCase() === '100-continue'

/** Node calls this for an `Expect` other than 100-continue: 417 with the Error body. */
export const refuseExpectation = (_req: IncomingMessage, res: ServerResponse): void =>
  answerError(res, 'expectation_failed', 'only Expect: 100-continue is supported')

/**
 * CONNECT asks for a tunnel, a proxy's job: no resource here takes it (501, before
 * authentication). Node hands such requests to 'connect' and, without a listener, closes the
 * connection without a word. One of another version than HTTP/1.1 or 1.0 is 400, as any other.
 */
export const refuseConnect = (req: IncomingMessage, socket: Duplex): void => {
  // Node hands the socket over without its error listener: a client that resets the connection
  // while the refusal is written would otherwise take the process down.
  socket.on('error', () => socket.destroy())
  const requestId = requestIdOf(req.headers['x-request-id'])
  const answer = isServedVersion(req)
    ? rawErrorAnswer('not_implemented', 'CONNECT is not supported', requestId)
    : rawErrorAnswer('bad_request', VERSION_REFUSAL, requestId)
  // The requests pipelined ahead of it are answered first, as ahead of bytes the parser refuses.
  afterAnswers(socket, () =>
    socket.writable ? refuseAndClose(socket, answer) : void socket.destroy(),
  )
}
