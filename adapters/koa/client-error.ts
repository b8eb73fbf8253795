import { STATUS_CODES, type ServerResponse } from 'node:http'
import type { Duplex } from 'node:stream'
import { ERROR_CODES, errorBody, type ErrorCode } from './problem.js'

const answerOf = (code: string | undefined): [ErrorCode, string] => {
  if (code === 'HPE_HEADER_OVERFLOW')
    return ['headers_too_large', 'the request headers are too large']
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT')
    return ['request_timeout', 'the request took too long to arrive']
  return ['bad_request', 'the request is not valid HTTP/1.1']
}

const BASE_HEADERS = 'Cache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\n'

/** A whole answer written straight on a socket, for refusals made before any app sees a request. */
export const rawErrorAnswer = (code: ErrorCode, message: string, extra = ''): string => {
  const status = ERROR_CODES[code]
  const body = errorBody(code, message)
  return (
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
    'Content-Type: application/json\r\n' +
    `Content-Length: ${Buffer.byteLength(body)}\r\n` +
    `${BASE_HEADERS}${extra}Connection: close\r\n\r\n${body}`
  )
}

/** The same Error body through a ServerResponse (Node hands one to 'checkExpectation'). */
export const answerError = (res: ServerResponse, code: ErrorCode, message: string): void => {
  const body = errorBody(code, message)
  res.writeHead(ERROR_CODES[code], {
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(body),
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
    Connection: 'close',
  })
  res.end(body)
}

type HttpSocket = Duplex & { _httpMessage?: { headersSent?: boolean } | null }

/**
 * Node's HTTP parser refuses some requests before any app sees them (oversized headers, bad
 * request lines, NUL bytes in headers) and by default answers them with an empty body. Wired to
 * the server's 'clientError' event, this answers them with the same Error body as everything else.
 * A request already answered (a 401 to a body that is still arriving, say) gets no second answer.
 */
export const answerClientError = (error: Error & { code?: string }, socket: Duplex): void => {
  const answered = (socket as HttpSocket)._httpMessage?.headersSent === true
  if (error.code === 'ECONNRESET' || !socket.writable || answered) {
    socket.destroy()
    return
  }
  const [code, message] = answerOf(error.code)
  socket.end(rawErrorAnswer(code, message))
}
