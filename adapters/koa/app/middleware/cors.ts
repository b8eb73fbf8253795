import type { Next } from 'koa'
import type { AppContext } from '../../request/app-state.js'
import type { Preflight } from '../routes/preflight.js'
import { setEmptyAnswer, setHeader } from '../../response/answer/index.js'
import { EXPOSED_HEADERS } from '../../response/header-names.js'

export type CorsOptions = {
  /** Exact origins (`https://app.example`), as browsers send them. Empty: CORS is off. */
  readonly origins: ReadonlyArray<string>
  /** What the route table allows on a path; undefined for a path the router does not know. */
  readonly preflightOf: (path: string) => Preflight | undefined
}

/**
 * Browsers' cross-origin access, before authentication (a preflight carries no credentials).
 * A preflight (OPTIONS with Origin and Access-Control-Request-Method) from an allowed origin to a
 * routed path answers 204 with exactly that path's methods and headers. Other preflights (another
 * origin, an unknown path) go on unchanged and without CORS headers (so OPTIONS stays 401 or 405
 * with Allow); every other answer to an allowed origin carries Access-Control-Allow-Origin and
 * the exposed headers.
 */
export const cors = (options: CorsOptions) => {
  const allowed = new Set(options.origins)
  const cors = async (ctx: AppContext, next: Next): Promise<void> => {
    // Koa's helper: it adds to a Vary already set where a setter would replace it.
    ctx.vary('Origin')
    const origin = ctx.req.headers.origin
    if (origin === undefined || !allowed.has(origin)) return next()
    const preflight =
      ctx.method === 'OPTIONS' && ctx.req.headers['access-control-request-method'] !== undefined
    if (!preflight) {
      setHeader(ctx, 'Access-Control-Allow-Origin', origin)
      setHeader(ctx, 'Access-Control-Expose-Headers', EXPOSED_HEADERS)
      return next()
    }
    const preflightAnswer = options.preflightOf(ctx.path)
    // A path the router does not know: an ordinary OPTIONS, as for an origin not on the list.
    if (preflightAnswer === undefined) return next()
    setEmptyAnswer(ctx, 204)
    setHeader(ctx, 'Access-Control-Allow-Origin', origin)
    setHeader(ctx, 'Access-Control-Allow-Methods', preflightAnswer.methods)
    setHeader(ctx, 'Access-Control-Allow-Headers', preflightAnswer.headers)
    setHeader(ctx, 'Access-Control-Max-Age', '600')
  }
  return cors
}
