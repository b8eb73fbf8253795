import * as E from 'fp-ts/lib/Either.js'
import type { Next } from 'koa'
import type { AppContext } from '../../request/app-state.js'
import type { Responder } from '../../response/answer/index.js'
import type { CheckReadiness } from '../../../../core/index.js'
import { PUBLIC_METHODS } from '../public-paths.js'

/** A request to `/healthz` or `/readyz`, which the probes answer. */
export const isProbe = (ctx: AppContext): boolean =>
  ctx.path === '/healthz' || ctx.path === '/readyz'

/** `/healthz` (the process answers) and `/readyz` (so does the store): outside the API, no auth. */
export const probes = (checkReadiness: CheckReadiness, respond: Responder) => {
  // Probes need no key: a flood of them shares the check in flight (one database ping) rather
  // than sending one each, beside the API's own store calls.
  let inFlight: ReturnType<ReturnType<CheckReadiness>> | undefined
  const shared = () =>
    (inFlight ??= checkReadiness()().finally(() => {
      inFlight = undefined
    }))
  const answer = async (ctx: AppContext): Promise<void> => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD')
      return respond.problem(ctx, { _tag: 'MethodNotAllowed', allow: PUBLIC_METHODS })
    if (ctx.path === '/healthz') return respond.json(ctx, 200, '{"status":"ok"}')
    const ready = await shared()
    return E.isRight(ready)
      ? respond.json(ctx, 200, '{"status":"ready"}')
      : respond.problem(ctx, ready.left)
  }
  // Not async: every API request passes through, and a pass-through should cost no promise.
  const answerProbes = (ctx: AppContext, next: Next): Promise<void> =>
    isProbe(ctx) ? answer(ctx) : next()
  return answerProbes
}
