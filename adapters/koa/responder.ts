import type * as TE from 'fp-ts/lib/TaskEither.js'
import type { Logger } from '../../core/index.js'
import type { AppContext } from './app-state.js'
import { ERROR_CODES, errorBody, toErrorResponse, type Problem } from './problem.js'

/*
 * Content-Type is set before the body so that Koa does not sniff the string to guess a type;
 * the body is already JSON text, so nothing is serialized twice.
 */
export const sendJson = (ctx: AppContext, status: number, json: string): void => {
  ctx.status = status
  ctx.set('Content-Type', 'application/json')
  ctx.body = json
}

/** How every answer is written: JSON, problems with the retry policy, and the unexpected. */
export type Responder = {
  readonly json: (ctx: AppContext, status: number, json: string) => void
  readonly problem: (ctx: AppContext, problem: Problem) => void
  /** Runs a use case and answers with its result (through `onSuccess`) or its problem. */
  readonly task: <A>(
    ctx: AppContext,
    task: TE.TaskEither<Problem, A>,
    onSuccess: (a: A) => void,
  ) => Promise<void>
  /** An exception nobody expected: logged with its detail, answered 500 without it. */
  readonly internal: (ctx: AppContext, error: unknown, requestId: string) => void
}

export type ResponderOptions = { readonly retryAfterSeconds: number; readonly logger: Logger }

export const createResponder = ({ retryAfterSeconds, logger }: ResponderOptions): Responder => {
  const problem = (ctx: AppContext, p: Problem): void => {
    const { code, message, headers } = toErrorResponse(p, retryAfterSeconds)
    if (headers !== undefined) ctx.set(headers)
    sendJson(ctx, ERROR_CODES[code], errorBody(code, message))
    if (p._tag === 'StoreUnavailable') ctx.state.storeFailure = p.detail
  }
  return {
    json: sendJson,
    problem,
    task: async (ctx, task, onSuccess) => {
      const result = await task()
      if (result._tag === 'Left') problem(ctx, result.left)
      else onSuccess(result.right)
    },
    internal: (ctx, error, requestId) => {
      logger.error({ requestId, err: error }, 'unexpected error')
      problem(ctx, { _tag: 'Internal' })
    },
  }
}
