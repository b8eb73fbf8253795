import type {
  ApiKeys,
  CheckReadiness,
  IdempotencyStore,
  Logger,
  PetStore,
} from '../../../core/index.js'
import type { TrustProxy } from '../request/proxy-trust.js'
import type { RequestTracer } from '../request/request-trace.js'
import type { ApiSettingOptions } from './api-settings.js'
import type { RequestObserver } from './middleware/observe.js'
import type { OpenApiServer } from './openapi/document.js'
import type { RateLimitOptions } from './rate-limits.js'
import type { RequestLine } from './request-log.js'
import type { RouteTable } from './routes/index.js'

/**
 * The ports the app runs on, each by its name: the pet store, the key lookup, the idempotency
 * store, a logger, a clock, readiness. The routes and use cases receive them under these names.
 * Only the store and the keys are required; the others have the defaults their comments give.
 */
export type KoaAppDeps = {
  readonly store: PetStore
  /** Looks up the API key a request presents. */
  readonly apiKeys: ApiKeys
  /**
   * Where Idempotency-Keys are kept; shared by every instance in production.
   *
   * @defaultValue none: a create that sends a key is refused with 501 rather than run without the
   * guarantee it asks for (a store in one process would not keep it across instances)
   */
  readonly idempotencyStore?: IdempotencyStore | undefined
  /**
   * Where the app logs unexpected errors and, without `requestLine`, each request.
   *
   * @defaultValue `silentLogger`: nothing is logged
   */
  readonly logger?: Logger | undefined
  /**
   * The clock, in epoch milliseconds; injected so the sunset can be tested.
   *
   * @defaultValue `Date.now`
   */
  readonly now?: (() => number) | undefined
  /**
   * Whether the service can serve requests, for /readyz.
   *
   * @defaultValue the store's own answer: ready when it reads a page of one pet, else its error
   * (503 while it is unavailable)
   */
  readonly checkReadiness?: CheckReadiness | undefined
  /**
   * The request log line, faster than the logger's (see RequestLine).
   *
   * @defaultValue the logger's `info`
   */
  readonly requestLine?: RequestLine | undefined
  /**
   * Metrics: told of every request.
   *
   * @defaultValue none
   */
  readonly observeRequest?: RequestObserver | undefined
  /**
   * Traces: a span for each request and its operation.
   *
   * @defaultValue none: nothing is traced
   */
  readonly tracer?: RequestTracer | undefined
}

/**
 * How the app answers: the API's settings ({@link ApiSettingOptions}: the interface's when left
 * out, each default on its field), and what only an embedding chooses. All are optional.
 */
export type KoaAppOptions = ApiSettingOptions & {
  /**
   * The `servers` of the OpenAPI document, served without auth at `<basePath>/openapi.json`,
   * after its first: the public base path (where the app is mounted, then `basePath`), where
   * this app answers.
   *
   * @defaultValue none: the public base path alone
   */
  readonly openApiServers?: ReadonlyArray<OpenApiServer> | undefined
  /**
   * Logs the probes (`/healthz`, `/readyz`) that succeed too.
   *
   * @defaultValue false: a probe answered 2xx writes no request line
   */
  readonly logProbes?: boolean | undefined
  /**
   * Origins allowed to call the API from a browser (CORS).
   *
   * @defaultValue none: CORS is off
   */
  readonly corsOrigins?: ReadonlyArray<string> | undefined
  /**
   * The proxies trusted to name the client (`Forwarded`, `X-Forwarded-For`): every per-address
   * budget and the request log follow them, mounted or not; so does `ctx.ip` where the app is
   * served alone (mounted, the host's context keeps the host's `ctx.ip`).
   *
   * @defaultValue none: the peer is the client
   */
  readonly trustProxy?: TrustProxy | undefined
  /**
   * Per-key and per-address rate limits.
   *
   * @defaultValue none: no rate limit
   */
  readonly rateLimits?: RateLimitOptions | undefined
  /**
   * The API's route table, keyed by operationId.
   *
   * @defaultValue `ROUTES`: the interface's
   */
  readonly routes?: RouteTable | undefined
  /**
   * The path clients' URLs have in front of the app's own when something the app cannot see
   * took it off: a proxy that strips `/shop`, a host that rewrites the path without koa-mount.
   * The links the app writes (`Location`, `Link`, the document's default server) start with it,
   * then with koa-mount's `ctx.mountPath`, then with `basePath`.
   *
   * @defaultValue empty
   */
  readonly publicPrefix?: string | undefined
}
