import type { Next } from 'koa'
import type { AppContext } from '../app-state.js'

export type CorsOptions = {
  /** Exact origins (`https://app.example`), as browsers send them. Empty: CORS is off. */
  readonly origins: ReadonlyArray<string>
  /** The methods the router accepts on a path (HEAD included); empty for an unknown path. */
  readonly methodsOf: (path: string) => ReadonlyArray<string>
}

/** Request headers a browser may send, by method: what each operation reads, nothing more. */
const REQUEST_HEADERS: Readonly<Record<string, ReadonlyArray<string>>> = {
  GET: ['Authorization', 'X-Request-Id'],
  HEAD: ['Authorization', 'X-Request-Id'],
  POST: ['Authorization', 'Content-Type', 'Idempotency-Key', 'X-Request-Id'],
}

/** Response headers a script may read; the browser hides all but a few safe ones otherwise. */
export const EXPOSED_HEADERS = [
  'Link',
  'Location',
  'Deprecation',
  'Sunset',
  'X-Request-Id',
  'Retry-After',
  'WWW-Authenticate',
  'RateLimit',
  'RateLimit-Policy',
  'Idempotent-Replayed',
].join(', ')

const headersOf = (methods: ReadonlyArray<string>) =>
  [...new Set(methods.flatMap((m) => REQUEST_HEADERS[m] ?? []))].sort().join(', ')

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
  return async (ctx: AppContext, next: Next): Promise<void> => {
    ctx.vary('Origin')
    const origin = ctx.req.headers.origin
    if (origin === undefined || !allowed.has(origin)) return next()
    const preflight =
      ctx.method === 'OPTIONS' && ctx.req.headers['access-control-request-method'] !== undefined
    if (!preflight) {
      ctx.set('Access-Control-Allow-Origin', origin)
      ctx.set('Access-Control-Expose-Headers', EXPOSED_HEADERS)
      return next()
    }
    const methods = options.methodsOf(ctx.path)
    // A path the router does not know: an ordinary OPTIONS, as for an origin not on the list.
    if (methods.length === 0) return next()
    ctx.status = 204
    ctx.set('Access-Control-Allow-Origin', origin)
    ctx.set('Access-Control-Allow-Methods', methods.join(', '))
    ctx.set('Access-Control-Allow-Headers', headersOf(methods))
    ctx.set('Access-Control-Max-Age', '600')
  }
}
