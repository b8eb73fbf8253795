import { STATUS_CODES } from 'node:http'
import type { Duplex } from 'node:stream'
import { ERROR_CODES, errorBody, type ErrorCode } from './problem.js'

const answerOf = (code: string | undefined): [ErrorCode, string] => {
  if (code === 'HPE_HEADER_OVERFLOW')
    return ['headers_too_large', 'the request headers are too large']
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT')
    return ['request_timeout', 'the request took too long to arrive']
  return ['bad_request', 'the request is not valid HTTP/1.1']
}

/**
 * Node's HTTP parser refuses some requests before any app sees them (oversized headers, bad
 * request lines, NUL bytes in headers) and by default answers them with an empty body. Wired to
 * the server's 'clientError' event, this answers them with the same Error body as everything else.
 */
export const answerClientError = (error: Error & { code?: string }, socket: Duplex): void => {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy()
    return
  }
  const [code, message] = answerOf(error.code)
  const status = ERROR_CODES[code]
  const body = errorBody(code, message)
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
      'Content-Type: application/json\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      'Cache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n' +
      body,
  )
}
