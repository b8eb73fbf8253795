import { expect } from 'chai'
import { ERROR_CODES, type ErrorCode } from '../../adapters/koa/index.js'
import type { Reply } from './http.js'

/** Asserts an Error answer: status, JSON content type, exactly {code, message, status}. */
export const expectError = (
  reply: Reply,
  status: number,
  code?: ErrorCode,
  messagePart?: string,
): void => {
  expect(reply.status, reply.text).to.equal(status)
  expect(reply.headers['content-type']).to.equal('application/json')
  const body = reply.json as Record<string, unknown>
  expect(Object.keys(body).sort()).to.deep.equal(['code', 'message', 'status'])
  expect(body.status).to.equal(BigInt(status))
  expect(ERROR_CODES[body.code as ErrorCode]).to.equal(status)
  expect(body.message).to.be.a('string').and.not.equal('')
  if (code !== undefined) expect(body.code).to.equal(code)
  if (messagePart !== undefined) expect(body.message).to.include(messagePart)
}
