import type * as TE from 'fp-ts/lib/TaskEither.js'
import Koa, { type Context } from 'koa'
import type { ApiKeys, PetStore, StoreUnavailable } from '../../core/index.js'
import { deprecationHeaders, type DeprecationPolicy } from './deprecation.js'
import type { Logger } from './logger.js'
import { createPetRouter } from './pet-routes.js'
import { fallback } from './middleware/fallback.js'
import { frame } from './middleware/frame.js'
import { gate } from './middleware/gate.js'
import { probes } from './middleware/probes.js'
import type { Problem } from './problem.js'
import { createRateLimits, type RateLimitOptions } from './rate-limits.js'
import { sendProblem } from './respond.js'

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
  /** Per-key and per-address rate limits; off when undefined. */
  readonly rateLimits?: RateLimitOptions
}

/** Builds the app without listening: servers, tests and embedders call `app.callback()`. */
export const createKoaApp = (deps: KoaAppDeps, options: KoaAppOptions): Koa => {
  const { basePath, retryAfterSeconds, openApiJson } = options
  const sunsetAt = options.deprecation.sunsetAt.getTime()
  const problem = (ctx: Context, p: Problem) => sendProblem(ctx, p, retryAfterSeconds)
  const router = createPetRouter(deps, { ...options, getPetIsGone: () => deps.now() >= sunsetAt })
  const deprecation = deprecationHeaders(options.deprecation, basePath)
  const limits =
    options.rateLimits === undefined ? undefined : createRateLimits(options.rateLimits, deps.now)

  const app = new Koa()
  app.use(frame(deps.logger, problem))
  app.use(probes(deps.checkReadiness, problem))
  app.use(gate(deps, { basePath, openApiJson, deprecationHeaders: deprecation, limits }, problem))
  app.use(router.routes())
  app.use(fallback(problem))
  return app
}
