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
 * routed path answers 204 with exactly that path's methods and headers. Any other request,
 * preflights from other origins included, goes on unchanged (so OPTIONS stays 401 or 405 with
 * Allow); allowed origins get Access-Control-Allow-Origin and the exposed headers on every answer.
 */
export const cors = (options: CorsOptions) => {
  const allowed = new Set(options.origins)
  return async (ctx: AppContext, next: Next): Promise<void> => {
    ctx.vary('Origin')
    const origin = ctx.req.headers.origin
    if (origin === undefined || !allowed.has(origin)) return next()
    ctx.set('Access-Control-Allow-Origin', origin)
    const preflight =
      ctx.method === 'OPTIONS' && ctx.req.headers['access-control-request-method'] !== undefined
    const methods = preflight ? options.methodsOf(ctx.path) : []
    if (methods.length === 0) {
      ctx.set('Access-Control-Expose-Headers', EXPOSED_HEADERS)
      return next()
    }
    ctx.status = 204
    ctx.set('Access-Control-Allow-Methods', methods.join(', '))
    ctx.set('Access-Control-Allow-Headers', headersOf(methods))
    ctx.set('Access-Control-Max-Age', '600')
  }
}
