import type {
  ApiKeys,
  CheckReadiness,
  IdempotencyStore,
  Logger,
  PetStore,
} from '../../../core/index.js'
import type { TrustProxy } from '../request/proxy-trust.js'
import type { RequestTracer } from '../request/request-trace.js'
import type { ApiSettings } from './api-settings.js'
import type { RequestObserver } from './middleware/observe.js'
import type { OpenApiServer } from './openapi/document.js'
import type { RateLimitOptions } from './rate-limits.js'
import type { RequestLine } from './request-log.js'
import type { RouteTable } from './routes/index.js'

/**
 * The ports the app runs on, each by its name: the pet store, the key lookup, the idempotency
 * store, a logger, a clock, readiness. The routes and use cases receive them under these names.
 */
export type KoaAppDeps = {
  readonly store: PetStore
  /** Looks up the API key a request presents. */
  readonly apiKeys: ApiKeys
  /**
   * Where Idempotency-Keys are kept; shared by every instance in production. Absent, a create
   * that sends a key is refused with 501 rather than run without the guarantee it asks for.
   */
  readonly idempotencyStore?: IdempotencyStore
  readonly logger: Logger
  /** The clock, in epoch milliseconds; injected so the sunset can be tested. */
  readonly now: () => number
  /** Whether the store can serve requests, for /readyz. */
  readonly checkReadiness: CheckReadiness
  /** The request log line, faster than the logger's (see RequestLine); the logger's otherwise. */
  readonly requestLine?: RequestLine
  /** Metrics: told of every request when given. */
  readonly observeRequest?: RequestObserver
  /** Traces: a span for each request and its operation when given (none by default). */
  readonly tracer?: RequestTracer
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
  /** The API's route table, keyed by operationId; ROUTES (the interface's) by default. */
  readonly routes?: RouteTable
  /**
   * The path clients' URLs have in front of the app's own when something the app cannot see
   * took it off: a proxy that strips `/shop`, a host that rewrites the path without koa-mount.
   * The links the app writes (`Location`, `Link`, the document's default server) start with it,
   * then with koa-mount's `ctx.mountPath`, then with `basePath`. Empty by default.
   */
  readonly publicPrefix?: string
}
