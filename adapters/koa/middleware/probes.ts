import * as E from 'fp-ts/lib/Either.js'
import type * as TE from 'fp-ts/lib/TaskEither.js'
import type { Context, Next } from 'koa'
import type { StoreUnavailable } from '../../../core/index.js'
import type { Problem } from '../problem.js'
import { sendJson } from '../respond.js'

/** `/healthz` (the process answers) and `/readyz` (so does the store): outside the API, no auth. */
export const probes =
  (
    checkReadiness: () => TE.TaskEither<StoreUnavailable, void>,
    problem: (ctx: Context, p: Problem) => void,
  ) =>
  async (ctx: Context, next: Next): Promise<void> => {
    if (ctx.path !== '/healthz' && ctx.path !== '/readyz') return next()
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD')
      return problem(ctx, { _tag: 'MethodNotAllowed', allow: ['GET', 'HEAD'] })
    if (ctx.path === '/healthz') return sendJson(ctx, 200, '{"status":"ok"}')
    const ready = await checkReadiness()()
    return E.isRight(ready) ? sendJson(ctx, 200, '{"status":"ready"}') : problem(ctx, ready.left)
  }
