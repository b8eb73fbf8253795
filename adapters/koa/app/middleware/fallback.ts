import type { AppContext } from '../../request/app-state.js'
import type { Responder } from '../../response/answer/index.js'

type MatchedLayer = { readonly methods: ReadonlyArray<string> }

/** Reached only when no route took the request: 405 with Allow if the path is known, else 404. */
export const fallback = (respond: Responder) => {
  const answerUnrouted = (ctx: AppContext): void => {
    const matched = (ctx.matched ?? []) as ReadonlyArray<MatchedLayer>
    const allow = new Set(matched.flatMap((layer) => layer.methods))
    if (allow.size === 0) return respond.problem(ctx, { _tag: 'RouteNotFound' })
    return respond.problem(ctx, { _tag: 'MethodNotAllowed', allow: [...allow].sort() })
  }
  return answerUnrouted
}
