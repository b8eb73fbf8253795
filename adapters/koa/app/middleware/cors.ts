import type { Next } from 'koa'
import type { AppContext } from '../../request/app-state.js'
import type { Preflight } from '../routes/preflight.js'
import { setEmptyAnswer, setHeader } from '../../response/answer/index.js'
import { EXPOSED_HEADERS } from '../../response/header-names.js'

export type CorsOptions = {
  /** Exact origins (`https://app.example`), as browsers send them. Empty: CORS is off. */
  readonly origins: ReadonlyArray<string>
  /** What the app serves on a path (routed or public); undefined for a path it does not serve. */
  readonly preflightOf: (path: string) => Preflight | undefined
}

const isPreflight = (ctx: AppContext): boolean =>
  ctx.method === 'OPTIONS' && ctx.req.headers['access-control-request-method'] !== undefined

/**
 * Browsers' cross-origin access, before authentication (a preflight carries no credentials).
 * Every answer to an allowed origin carries Access-Control-Allow-Origin, so that a browser can
 * tell a refused request from a refused origin. A preflight (OPTIONS with Origin and
 * Access-Control-Request-Method) from it to a path the app serves, routed or public, answers 204
 * with exactly that path's methods and headers; any other answer to it also carries the exposed
 * headers (a preflight to an unknown path goes on as an ordinary OPTIONS: 401, 404). A request
 * from another origin goes on without CORS headers.
 */
export const cors = (options: CorsOptions) => {
  const allowed = new Set(options.origins)
  const cors = async (ctx: AppContext, next: Next): Promise<void> => {
    // Koa's helper: it adds to a Vary already set where a setter would replace it.
    ctx.vary('Origin')
    const origin = ctx.req.headers.origin
    if (origin === undefined || !allowed.has(origin)) return next()
    setHeader(ctx, 'Access-Control-Allow-Origin', origin)
    const preflight = isPreflight(ctx) ? options.preflightOf(ctx.path) : undefined
    if (preflight === undefined) {
      setHeader(ctx, 'Access-Control-Expose-Headers', EXPOSED_HEADERS)
      return next()
    }
    setEmptyAnswer(ctx, 204)
    setHeader(ctx, 'Access-Control-Allow-Methods', preflight.methods)
    setHeader(ctx, 'Access-Control-Allow-Headers', preflight.headers)
    setHeader(ctx, 'Access-Control-Max-Age', '600')
  }
  return cors
}
