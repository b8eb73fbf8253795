import * as E from 'fp-ts/lib/Either.js'
import type * as TE from 'fp-ts/lib/TaskEither.js'
import Koa, { type Context, type Next } from 'koa'
import {
  authenticate,
  type ApiKeys,
  type PetStore,
  type StoreUnavailable,
} from '../../core/index.js'
import { deprecationHeaders, type DeprecationPolicy } from './deprecation.js'
import type { Logger } from './logger.js'
import { createPetRouter } from './pet-routes.js'
import { sendJson, sendProblem } from './respond.js'
import { requestIdOf } from './request-id.js'
import { logRequest } from './request-log.js'

export type KoaAppDeps = PetStore &
  ApiKeys & {
    readonly logger: Logger
    /** The clock, in epoch milliseconds; injected so the sunset can be tested. */
    readonly now: () => number
    /** Whether the store can serve requests, for /readyz. */
    readonly checkReadiness: () => TE.TaskEither<StoreUnavailable, void>
  }

export type KoaAppOptions = {
  /** Where the API lives, e.g. `/v1`: no trailing slash. */
  readonly basePath: string
  readonly maxBodyBytes: number
  readonly retryAfterSeconds: number
  readonly deprecation: DeprecationPolicy
  /** The OpenAPI document, served without auth at `<basePath>/openapi.json`. */
  readonly openApiJson: string
}

/** Builds the app without listening: servers, tests and embedders call `app.callback()`. */
export const createKoaApp = (deps: KoaAppDeps, options: KoaAppOptions): Koa => {
  const { basePath, retryAfterSeconds } = options
  const getPetPath = new RegExp(`^${basePath.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/pets/[^/]+$`)
  const deprecated = Object.entries(deprecationHeaders(options.deprecation, basePath))
  const sunsetAt = options.deprecation.sunsetAt.getTime()
  const authenticateHeader = authenticate(deps)
  const router = createPetRouter(deps, {
    ...options,
    getPetIsGone: () => deps.now() >= sunsetAt,
  })
  const problem = (ctx: Context, p: Parameters<typeof sendProblem>[1]) =>
    sendProblem(ctx, p, retryAfterSeconds)

  const frame = async (ctx: Context, next: Next) => {
    const started = performance.now()
    const requestId = requestIdOf(ctx.req.headers['x-request-id'])
    ctx.res.setHeader('X-Request-Id', requestId)
    ctx.res.setHeader('Cache-Control', 'no-store')
    ctx.res.setHeader('X-Content-Type-Options', 'nosniff')
    try {
      await next()
    } catch (error) {
      deps.logger.error({ requestId, err: error }, 'unexpected error')
      problem(ctx, { _tag: 'Internal' })
    }
    logRequest(deps.logger, ctx, requestId, started)
  }

  const probes = async (ctx: Context, next: Next) => {
    if (ctx.path !== '/healthz' && ctx.path !== '/readyz') return next()
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD')
      return problem(ctx, { _tag: 'MethodNotAllowed', allow: ['GET', 'HEAD'] })
    if (ctx.path === '/healthz') return sendJson(ctx, 200, '{"status":"ok"}')
    const ready = await deps.checkReadiness()()
    return E.isRight(ready) ? sendJson(ctx, 200, '{"status":"ready"}') : problem(ctx, ready.left)
  }

  const gate = async (ctx: Context, next: Next) => {
    const path = ctx.path
    if (path !== basePath && !path.startsWith(`${basePath}/`))
      return problem(ctx, { _tag: 'RouteNotFound' })
    if (path === `${basePath}/openapi.json`) {
      if (ctx.method !== 'GET' && ctx.method !== 'HEAD')
        return problem(ctx, { _tag: 'MethodNotAllowed', allow: ['GET', 'HEAD'] })
      return sendJson(ctx, 200, options.openApiJson)
    }
    if ((ctx.method === 'GET' || ctx.method === 'HEAD') && getPetPath.test(path))
      for (const [name, value] of deprecated) ctx.res.setHeader(name, value)
    // Before routing: an anonymous caller learns nothing, not even which paths exist.
    const principal = await authenticateHeader(ctx.req.headers.authorization)()
    if (E.isLeft(principal)) return problem(ctx, principal.left)
    ctx.state.principal = principal.right
    return next()
  }

  /** Reached only when no route took the request: 405 if the path is known, else 404. */
  const fallback = (ctx: Context) => {
    const matched = (ctx.matched ?? []) as ReadonlyArray<{
      readonly methods: ReadonlyArray<string>
    }>
    const allow = new Set(matched.flatMap((layer) => layer.methods))
    if (allow.size === 0) return problem(ctx, { _tag: 'RouteNotFound' })
    return problem(ctx, { _tag: 'MethodNotAllowed', allow: [...allow].sort() })
  }

  const app = new Koa()
  app.use(frame)
  app.use(probes)
  app.use(gate)
  app.use(router.routes())
  app.use(fallback)
  return app
}
