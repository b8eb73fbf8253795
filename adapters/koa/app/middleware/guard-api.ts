import type { Next } from 'koa'
import type { AppContext } from '../../request/app-state.js'
import type { AuthenticateDeps } from '../../../../core/index.js'
import type { RateLimits } from '../rate-limits.js'
import { deprecatedPathTest, scopeByMethod, type Route } from '../routes/index.js'
import { admission } from './admit.js'
import { setAnswer, setHeaders, type Responder } from '../../response/answer/index.js'
import { perPublicBase } from '../public-base.js'
import type { ClientOf } from '../../request/client-address.js'
import { PUBLIC_METHODS } from '../public-paths.js'

export type FrontDoorOptions = {
  readonly basePath: string
  /** Where this request's client reaches the base path (see public-base.ts). */
  readonly publicBase: (ctx: AppContext) => string
  /** The OpenAPI document as a client at this public base reads it. */
  readonly openApiJson: (base: string) => string
  /** Headers for every answer of the deprecated getPet, the 401 to an anonymous caller included. */
  readonly deprecationHeaders: (base: string) => Readonly<Record<string, string>>
  /** Per-key and per-address limits; none when undefined. */
  readonly limits?: RateLimits | undefined
  /** The route table: which paths are deprecated, which scope each method needs. */
  readonly routes: ReadonlyArray<Route>
  /** The client address, by the app's rules: what the failure budget is kept by. */
  readonly clientOf: ClientOf
}

/**
 * Guards the API: only paths under the base path are served; the OpenAPI document is
 * public; everything else is authenticated before routing, so an anonymous caller learns
 * nothing, not even which paths exist.
 */
export const guardApi = (
  authentication: AuthenticateDeps,
  options: FrontDoorOptions,
  respond: Responder,
) => {
  const { basePath, publicBase } = options
  const apiPrefix = `${basePath}/`
  const documentPath = `${basePath}/openapi.json`
  // Bytes made once for each public base: every answer shares them (a string would be encoded
  // anew into each, and answers a client has yet to read, pipelined, would each hold a copy).
  const documentBytes = perPublicBase((base) => Buffer.from(options.openApiJson(base)))
  const deprecationHeaders = perPublicBase(options.deprecationHeaders)
  const isDeprecated = deprecatedPathTest(basePath, options.routes)
  const admit = admission(
    authentication,
    options.limits,
    scopeByMethod(options.routes),
    options.clientOf,
  )

  // Not async: the admission's promise is the only one a request pays for here (see get-pet.ts).
  const guardApi = (ctx: AppContext, next: Next): void | Promise<void> => {
    const path = ctx.path
    if (path !== basePath && !path.startsWith(apiPrefix))
      return respond.problem(ctx, { _tag: 'RouteNotFound' })
    const readOnly = ctx.method === 'GET' || ctx.method === 'HEAD'
    if (path === documentPath)
      return readOnly
        ? setAnswer(ctx, 200, 'application/json', documentBytes(publicBase(ctx)))
        : respond.problem(ctx, { _tag: 'MethodNotAllowed', allow: PUBLIC_METHODS })
    if (readOnly && isDeprecated(path)) setHeaders(ctx, deprecationHeaders(publicBase(ctx)))
    return admit(ctx).then((refused) =>
      refused === undefined ? next() : respond.problem(ctx, refused),
    )
  }
  return guardApi
}
