import Koa from 'koa'
import type {
  ApiKeys,
  CheckReadiness,
  IdempotencyStore,
  Logger,
  PetStore,
} from '../../../core/index.js'
import type { AppState } from './app-state.js'
import { clientAddress, useClientAddress, type TrustProxy } from './client-address.js'
import { deprecationHeaders, type DeprecationPolicy } from './deprecation.js'
import { cors } from './middleware/cors.js'
import { docs } from './middleware/docs.js'
import { fallback } from './middleware/fallback.js'
import { frame } from './middleware/frame.js'
import { gate } from './middleware/gate.js'
import { observe, type RequestObserver } from './middleware/observe.js'
import { probes } from './middleware/probes.js'
import { createRateLimits, type RateLimitOptions } from './rate-limits.js'
import type { RequestLine } from './request-log.js'
import { createResponder } from './responder.js'
import { createRouter } from './routes/index.js'

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
    readonly idempotency?: IdempotencyStore
    /** The request log line, faster than the logger's (see RequestLine); the logger's otherwise. */
    readonly requestLine?: RequestLine
    /** Metrics: told of every request when given. */
    readonly observeRequest?: RequestObserver
  }

/** How the app answers: where it lives, its limits, and what it allows. */
export type KoaAppOptions = {
  /** Where the API lives, e.g. `/v1`: no trailing slash. */
  readonly basePath: string
  /** A request body larger than this is refused with 413. */
  readonly maxBodyBytes: number
  /** The Retry-After of a 503 answer, in seconds. */
  readonly retryAfterSeconds: number
  /** When `GET /pets/{petId}` counts as deprecated, and when it goes. */
  readonly deprecation: DeprecationPolicy
  /** The OpenAPI document, served without auth at `<basePath>/openapi.json`. */
  readonly openApiJson: string
  /** Origins allowed to call the API from a browser (CORS); none by default. */
  readonly corsOrigins?: ReadonlyArray<string>
  /**
   * The proxies trusted to name the client (`Forwarded`, `X-Forwarded-For`): `ctx.ip`, every
   * per-address budget and the request log follow them. None by default: the peer is the client.
   */
  readonly trustProxy?: TrustProxy | undefined
  /** Per-key and per-address rate limits; off when undefined. */
  readonly rateLimits?: RateLimitOptions
  /**
   * How long a keyed create holds its Idempotency-Key before a retry may take over (the first
   * may have died): at least the longest a create can take. IDEMPOTENCY_DEFAULTS.leaseMs
   * (30 s) when absent.
   */
  readonly idempotencyLeaseMs?: number
}

/** Builds the app without listening: servers, tests and embedders call `app.callback()`. */
export const createKoaApp = (deps: KoaAppDeps, options: KoaAppOptions): Koa<AppState> => {
  const { basePath, maxBodyBytes, openApiJson } = options
  const respond = createResponder({
    retryAfterSeconds: options.retryAfterSeconds,
    logger: deps.logger,
  })
  const router = createRouter({
    store: deps,
    ...(deps.idempotency === undefined ? {} : { idempotency: deps.idempotency }),
    ...(options.idempotencyLeaseMs === undefined
      ? {}
      : { idempotencyLeaseMs: options.idempotencyLeaseMs }),
    basePath,
    maxBodyBytes,
    respond,
    now: deps.now,
  })
  const deprecation = deprecationHeaders(options.deprecation, basePath)
  const limits =
    options.rateLimits === undefined ? undefined : createRateLimits(options.rateLimits, deps.now)

  const corsOrigins = options.corsOrigins ?? []
  const methodsOf = (path: string) =>
    [...new Set(router.match(path, 'OPTIONS').path.flatMap((layer) => layer.methods))].sort()

  const app = new Koa<AppState>()
  useClientAddress(app, clientAddress(options.trustProxy))
  if (deps.observeRequest !== undefined) app.use(observe(deps.observeRequest))
  app.use(frame(deps.logger, respond, deps.requestLine))
  // Before the probes: every answer to an allowed origin carries the CORS headers.
  if (corsOrigins.length > 0) app.use(cors({ origins: corsOrigins, methodsOf }))
  app.use(probes(deps.checkReadiness, respond))
  app.use(docs(basePath, respond, limits))
  app.use(gate(deps, { basePath, openApiJson, deprecationHeaders: deprecation, limits }, respond))
  app.use(router.routes())
  app.use(fallback(respond))
  return app
}
