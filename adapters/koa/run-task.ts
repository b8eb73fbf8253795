import type * as TE from 'fp-ts/lib/TaskEither.js'
import type { Context } from 'koa'
import type { Problem } from './problem.js'
import { sendProblem } from './respond.js'

/** Runs a use case and answers with its result or its problem. */
export const runTask = async <A>(
  ctx: Context,
  task: TE.TaskEither<Problem, A>,
  retryAfterSeconds: number,
  onSuccess: (a: A) => void,
): Promise<void> => {
  const result = await task()
  if (result._tag === 'Left') sendProblem(ctx, result.left, retryAfterSeconds)
  else onSuccess(result.right)
}
