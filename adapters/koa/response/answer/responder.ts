import type * as TE from 'fp-ts/lib/TaskEither.js'
import type { Logger } from '../../../../core/index.js'
import type { AppContext } from '../../request/app-state.js'
import { ERROR_CODES, errorBody, toErrorResponse, type Problem } from '../problem.js'
import { answerInForm, setEmptyAnswer, setHeaders, setJsonAnswer } from './set.js'

/**
 * How a route writes its answers: JSON, empty, problems with the retry policy, the unexpected. A
 * route is given the responder of the problems its operation may answer (`P`).
 */
export type Responder<P extends Problem = Problem> = {
  /** A JSON answer with its status: the body is JSON text already. */
  readonly json: (ctx: AppContext, status: number, json: string) => void
  /** An answer of its status alone, with no body (204). */
  readonly empty: (ctx: AppContext, status: number) => void
  /** An Error body `{code, message, status}`, with the headers its problem calls for. */
  readonly problem: (ctx: AppContext, problem: P) => void
  /** Runs a use case and answers with its result (through `onSuccess`) or its problem. */
  readonly runTask: <A>(
    ctx: AppContext,
    task: TE.TaskEither<P, A>,
    onSuccess: (a: A) => void,
  ) => Promise<void>
  /** An exception nobody expected: logged with its detail, answered 500 without it. */
  readonly internal: (ctx: AppContext, error: unknown, requestId: string) => void
}

export type ResponderOptions = { readonly retryAfterSeconds: number; readonly logger: Logger }

const asIs = (json: string) => json

export const createResponder = ({ retryAfterSeconds, logger }: ResponderOptions): Responder => {
  const problem = (ctx: AppContext, p: Problem): void => {
    const { code, message, headers } = toErrorResponse(p, retryAfterSeconds)
    if (headers !== undefined) setHeaders(ctx, headers)
    // No int64 field in it: the same text in either form, labelled as the request asked.
    answerInForm(ctx, ERROR_CODES[code], errorBody(code, message), asIs, asIs)
    if (p._tag === 'StoreUnavailable') ctx.state.storeFailure = p.detail
  }
  return {
    json: setJsonAnswer,
    empty: setEmptyAnswer,
    problem,
    // `then`, not an async function: one promise fewer on every request (see get-pet.ts).
    runTask: (ctx, task, onSuccess) => {
      // Traced, the task starts within the operation, so its store calls know their parent.
      const trace = ctx.state.trace
      const started =
        trace === undefined || trace.recording === false ? task() : trace.inOperation(task)
      return started.then((result) => {
        if (result._tag === 'Left') problem(ctx, result.left)
        else onSuccess(result.right)
      })
    },
    internal: (ctx, error, requestId) => {
      logger.error({ ...ctx.state.trace?.logFields, requestId, err: error }, 'unexpected error')
      problem(ctx, { _tag: 'Internal' })
    },
  }
}
