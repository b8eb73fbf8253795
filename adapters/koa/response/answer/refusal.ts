import { randomUUID } from 'node:crypto'
import { STATUS_CODES, type ServerResponse } from 'node:http'
import { requestIdOf } from '../../request/request-id.js'
import { ERROR_CODES, errorBody, type ErrorCode } from '../problem.js'
import { everyAnswerHeaders } from './set.js'

/*
 * Refusals of requests that never reach the app (Node's parser refused them, or the server's
 * guards did): the same Error body and headers as the app's answers, written without Koa.
 */

/**
 * A whole answer written straight on a socket, for refusals made outside the app. `requestId`
 * is the refused request's, or new when the request could not even be read.
 */
export const rawErrorAnswer = (
  code: ErrorCode,
  message: string,
  requestId: string = randomUUID(),
): string => {
  const status = ERROR_CODES[code]
  const body = errorBody(code, message)
  const lines = Object.entries(everyAnswerHeaders(requestId)).map(([n, v]) => `${n}: ${v}\r\n`)
  return (
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
    `Date: ${new Date().toUTCString()}\r\n` +
    'Content-Type: application/json\r\n' +
    `Content-Length: ${Buffer.byteLength(body)}\r\n` +
    `${lines.join('')}Connection: close\r\n\r\n${body}`
  )
}

/** The same Error body through a ServerResponse, for refusals of a request before the app. */
export const answerError = (res: ServerResponse, code: ErrorCode, message: string): void => {
  const body = errorBody(code, message)
  res.writeHead(ERROR_CODES[code], {
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(body),
    ...everyAnswerHeaders(requestIdOf(res.req.headers['x-request-id'])),
    Connection: 'close',
  })
  res.end(body)
}
