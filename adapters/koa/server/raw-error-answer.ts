import type { ServerResponse } from 'node:http'
import { Socket } from 'node:net'
import type { Duplex } from 'node:stream'
import type { ErrorCode } from '../response/problem.js'
import { rawErrorAnswer } from '../response/answer/index.js'
import { requestIdOf } from '../request/request-id.js'
import { responseOnSocket } from '../koa-internals.js'

const answerOf = (code: string | undefined): [ErrorCode, string] => {
  if (code === 'HPE_HEADER_OVERFLOW')
    return ['headers_too_large', 'the request headers are too large']
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT')
    return ['request_timeout', 'the request took too long to arrive']
  return ['bad_request', 'the request is not valid HTTP/1.1']
}

/** The id the app gave the answer in progress (its X-Request-Id), else the request's own. */
const requestIdOfAnswer = (res: ServerResponse): string => {
  const given = res.getHeader('X-Request-Id')
  return typeof given === 'string' ? given : requestIdOf(res.req.headers['x-request-id'])
}

/** How long a refusal may take to leave (a client that reads nothing) before the socket goes. */
const REFUSAL_GRACE_MS = 5000

/**
 * Writes a refusal and closes the connection for good once it has left, or after
 * REFUSAL_GRACE_MS without progress. `end` alone only half-closes (node:http keeps sockets
 * half-open): a client that never closed its side, or never read, would keep the connection,
 * and its request counted as in progress (never evicted under MAX_CONNECTIONS, holding a
 * shutdown up), for as long as it liked.
 */
export const refuseAndClose = (socket: Duplex, answer: string): void => {
  if (socket instanceof Socket) socket.setTimeout(REFUSAL_GRACE_MS, () => socket.destroy())
  socket.end(answer, () => socket.destroy())
}

/**
 * Runs `then` once every answer on the connection has been handed to the socket, those of
 * requests pipelined behind the one in progress too (node:http's own 'finish' listener, which
 * runs first, gives the socket to the next), or once the socket is gone.
 */
export const afterAnswers = (socket: Duplex, then: () => void): void => {
  const res = responseOnSocket(socket)
  if (res == null || res.destroyed || socket.destroyed) return then()
  let done = false
  const next = () => {
    if (done) return
    done = true
    afterAnswers(socket, then)
  }
  res.once('finish', next).once('close', next)
}

/**
 * Node's HTTP parser refuses some requests before any app sees them (oversized headers, bad
 * request lines, NUL bytes in headers) and by default answers them with an empty body; the
 * request timeout is reported here too. Wired to the server's 'clientError' event, this answers
 * them with the same Error body as everything else, and closes the connection.
 *
 * The requests already received on the connection are answered first: when the refused bytes
 * come after requests pipelined behind the one in progress, their answers still go out (they
 * were carried out), then the refusal. When the refusal is about the request in progress (its
 * body broke or timed out) and the app has answered it already (a 401 to a body still arriving,
 * say), it gets no second answer.
 * One per server: it remembers the connections it has refused, since the parser reports its error
 * again with every later chunk.
 */
export const createClientErrorAnswer = () => {
  const refused = new WeakSet<Duplex>()
  return (error: Error & { code?: string }, socket: Duplex): void => {
    if (refused.has(socket)) return
    refused.add(socket)
    if (error.code === 'ECONNRESET' || !socket.writable) return void socket.destroy()
    const [code, message] = answerOf(error.code)
    const res = responseOnSocket(socket) ?? undefined
    if (res === undefined) return refuseAndClose(socket, rawErrorAnswer(code, message))
    const inProgress = !res.req.complete
    if (inProgress && !res.headersSent)
      return refuseAndClose(socket, rawErrorAnswer(code, message, requestIdOfAnswer(res)))
    afterAnswers(socket, () => {
      if (inProgress || !socket.writable) socket.destroy()
      else refuseAndClose(socket, rawErrorAnswer(code, message))
    })
  }
}
