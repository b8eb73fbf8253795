/**
 * The HTTP adapter: `createKoaApp` builds the service's Koa app (mount it in a host Koa app, or
 * serve it with `createHttpServer`); the OpenAPI document, error codes and request records come
 * with it. Needs koa, @koa/router and @types/koa (optional peer dependencies).
 *
 * @module animal-store/koa
 */
export { createKoaApp, type KoaAppDeps, type KoaAppOptions } from './create-koa-app.js'
export type { ApiSettings } from './api-settings.js'
export type { DeprecationPolicy } from './deprecation.js'
export { ROUTES, type OperationText, type Route, type RouteDeps } from './routes/index.js'
export type { AppState } from './app-state.js'
export { ERROR_CODES, type ErrorCode } from './problem.js'
export { answerClientError } from './client-error.js'
export {
  openApiDocument,
  openApiJson,
  type OpenApiOptions,
  type OpenApiServer,
} from './openapi/document.js'
export { createHttpServer, type HttpLimits, type HttpServer } from './http-server.js'
export { MAX_PIPELINED, OVERFLOW_CONNECTIONS, type Connections } from './connections.js'
export type { RequestObserver } from './middleware/observe.js'
export type { RequestLine, RequestRecord } from './request-log.js'
export { EXPOSED_HEADERS } from './middleware/cors.js'
export type { Rate, RateLimitOptions } from './rate-limits.js'
export { BEARER_TOKEN, bearerTokenOf, isBearerToken } from './bearer.js'
export { isTrustedProxyEntry, type TrustProxy } from './client-address.js'
