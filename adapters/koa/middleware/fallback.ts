import type { Context } from 'koa'
import type { Problem } from '../problem.js'

type MatchedLayer = { readonly methods: ReadonlyArray<string> }

/** Reached only when no route took the request: 405 with Allow if the path is known, else 404. */
export const fallback =
  (problem: (ctx: Context, p: Problem) => void) =>
  (ctx: Context): void => {
    const matched = (ctx.matched ?? []) as ReadonlyArray<MatchedLayer>
    const allow = new Set(matched.flatMap((layer) => layer.methods))
    if (allow.size === 0) return problem(ctx, { _tag: 'RouteNotFound' })
    return problem(ctx, { _tag: 'MethodNotAllowed', allow: [...allow].sort() })
  }
