import Koa from 'koa'
import type {
  ApiKeys,
  CheckReadiness,
  IdempotencyStore,
  Logger,
  PetStore,
} from '../../../core/index.js'
import type { ApiSettings } from './api-settings.js'
import type { AppState } from './app-state.js'
import { clientAddress, useClientAddress, type TrustProxy } from './client-address.js'
import { deprecationHeaders } from './deprecation.js'
import { cors } from './middleware/cors.js'
import { docs } from './middleware/docs.js'
import { fallback } from './middleware/fallback.js'
import { frame } from './middleware/frame.js'
import { frontDoor } from './middleware/front-door.js'
import { observe, type RequestObserver } from './middleware/observe.js'
import { probes } from './middleware/probes.js'
import { createRateLimits, type RateLimitOptions } from './rate-limits.js'
import type { RequestLine } from './request-log.js'
import { createResponder } from './responder.js'
import { openApiJson, type OpenApiServer } from './openapi/document.js'
import { createRouter, ROUTES, type Route } from './routes/index.js'
import { preflightsOf } from './routes/preflight.js'

/** The ports the app runs on: the pet store, the key lookup, a logger, a clock, readiness. */
export type KoaAppDeps = PetStore &
  ApiKeys & {
    readonly logger: Logger
    /** The clock, in epoch milliseconds; injected so the sunset can be tested. */
    readonly now: () => number
    /** Whether the store can serve requests, for /readyz. */
    readonly checkReadiness: CheckReadiness
    /**
     * Where Idempotency-Keys are kept; shared by every instance in production. Absent, a create
     * that sends a key is refused with 501 rather than run without the guarantee it asks for.
     */
    readonly idempotencyStore?: IdempotencyStore
    /** The request log line, faster than the logger's (see RequestLine); the logger's otherwise. */
    readonly requestLine?: RequestLine
    /** Metrics: told of every request when given. */
    readonly observeRequest?: RequestObserver
  }

/** How the app answers: the API's settings, and what only an embedding chooses. */
export type KoaAppOptions = ApiSettings & {
  /**
   * The `servers` of the OpenAPI document, served without auth at `<basePath>/openapi.json`;
   * the base path alone by default.
   */
  readonly openApiServers?: ReadonlyArray<OpenApiServer>
  /** Origins allowed to call the API from a browser (CORS); none by default. */
  readonly corsOrigins?: ReadonlyArray<string>
  /**
   * The proxies trusted to name the client (`Forwarded`, `X-Forwarded-For`): `ctx.ip`, every
   * per-address budget and the request log follow them. None by default: the peer is the client.
   */
  readonly trustProxy?: TrustProxy | undefined
  /** Per-key and per-address rate limits; off when undefined. */
  readonly rateLimits?: RateLimitOptions
  /** The API's operations; ROUTES (the interface's) by default. */
  readonly routes?: ReadonlyArray<Route>
}

/**
 * Builds the app without listening: servers, tests and embedders call `app.callback()`.
 *
 * @example
 * ```ts
 * import { createServer } from 'node:http'
 * import { GET_PET_DEPRECATION, IDEMPOTENCY_DEFAULTS, LIST_LIMITS, silentLogger } from 'animal-store'
 * import { createInMemoryApiKeys, createInMemoryPetStore } from 'animal-store/in-memory'
 * import { createKoaApp } from 'animal-store/koa'
 *
 * const app = createKoaApp(
 *   {
 *     ...createInMemoryPetStore(),
 *     ...createInMemoryApiKeys(['my-secret-key']),
 *     logger: silentLogger,
 *     now: Date.now,
 *     checkReadiness: () => async () => ({ _tag: 'Right', right: undefined }),
 *   },
 *   {
 *     basePath: '/v1',
 *     maxBodyBytes: 8192,
 *     retryAfterSeconds: 2,
 *     listLimits: LIST_LIMITS,
 *     deprecation: {
 *       deprecatedAt: GET_PET_DEPRECATION.defaultDeprecatedAt,
 *       sunsetAt: GET_PET_DEPRECATION.sunsetAt,
 *     },
 *     idempotencyPolicy: IDEMPOTENCY_DEFAULTS,
 *   },
 * )
 * const server = createServer(app.callback()).listen(0, '127.0.0.1')
 * await new Promise((listening) => server.once('listening', listening))
 * const { port } = server.address() as { port: number }
 * const answer = await fetch(`http://127.0.0.1:${port}/v1/pets`, {
 *   headers: { authorization: 'Bearer my-secret-key' },
 * })
 * console.log(answer.status, await answer.text()) // 200 []
 * server.close()
 * ```
 */
export const createKoaApp = (deps: KoaAppDeps, options: KoaAppOptions): Koa<AppState> => {
  const { basePath, routes = ROUTES } = options
  const respond = createResponder({
    retryAfterSeconds: options.retryAfterSeconds,
    logger: deps.logger,
  })
  const router = createRouter(
    {
      ...options,
      store: deps,
      ...(deps.idempotencyStore === undefined ? {} : { idempotencyStore: deps.idempotencyStore }),
      respond,
      now: deps.now,
    },
    routes,
  )
  // The headers name the replacement that the table's deprecated operation gives.
  const deprecated = routes.find((route) => route.deprecation !== undefined)?.deprecation
  const deprecation =
    deprecated === undefined ? {} : deprecationHeaders(options.deprecation, basePath, deprecated)
  const limits =
    options.rateLimits === undefined ? undefined : createRateLimits(options.rateLimits, deps.now)
  const openApi = openApiJson({
    ...options,
    servers: options.openApiServers ?? [{ url: basePath, description: 'This service' }],
    routes,
  })

  const corsOrigins = options.corsOrigins ?? []
  const preflightOf = preflightsOf(router, routes, options)

  const app = new Koa<AppState>()
  useClientAddress(app, clientAddress(options.trustProxy))
  if (deps.observeRequest !== undefined) app.use(observe(deps.observeRequest))
  app.use(frame(deps.logger, respond, deps.requestLine))
  // Before the probes: every answer to an allowed origin carries the CORS headers.
  if (corsOrigins.length > 0) app.use(cors({ origins: corsOrigins, preflightOf }))
  app.use(probes(deps.checkReadiness, respond))
  app.use(docs(basePath, respond, limits))
  app.use(
    frontDoor(
      deps,
      { basePath, openApiJson: openApi, deprecationHeaders: deprecation, limits, routes },
      respond,
    ),
  )
  app.use(router.routes())
  app.use(fallback(respond))
  return app
}
