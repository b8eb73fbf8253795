import type { Context } from 'koa'
import { ERROR_CODES, errorBody, toErrorResponse, type Problem } from './problem.js'

/*
 * Content-Type is set before the body so that Koa does not sniff the string to guess a type;
 * the body is already JSON text, so nothing is serialized twice.
 */
export const sendJson = (ctx: Context, status: number, json: string): void => {
  ctx.status = status
  ctx.set('Content-Type', 'application/json')
  ctx.body = json
}

export const sendProblem = (ctx: Context, problem: Problem, retryAfterSeconds: number): void => {
  const { code, message, headers } = toErrorResponse(problem, retryAfterSeconds)
  if (headers !== undefined) ctx.set(headers)
  sendJson(ctx, ERROR_CODES[code], errorBody(code, message))
  if (problem._tag === 'StoreUnavailable') ctx.state.storeFailure = problem.detail
}
