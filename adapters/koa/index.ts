/**
 * The HTTP adapter: `createKoaApp` builds the service's Koa app (mount it in a host Koa app, or
 * serve it with `createHttpServer`); the OpenAPI document, error codes and request records come
 * with it. Needs koa, @koa/router and @types/koa (optional peer dependencies).
 *
 * @module animal-store/koa
 */
/*
 * Two layers:
 * - app/: the Koa application (createKoaApp): middleware, routes, OpenAPI, the docs page. A plain
 *   Koa app that anyone can serve with app.callback() or mount in a Koa host.
 * - server/: the node:http server that listens (createHttpServer): connection cap, wire guards,
 *   refusals written outside Koa, 100-continue, shutdown helpers, and the writer that drives the
 *   app as the server's root application. It uses the app's words (its Error body, the headers
 *   every answer carries, its state type); app/ never imports server/.
 */
export { createKoaApp, type KoaAppDeps, type KoaAppOptions } from './app/create-koa-app.js'
export type { ApiSettings } from './app/api-settings.js'
export type { DeprecationPolicy } from './app/deprecation.js'
export { ROUTES, type OperationText, type Route, type RouteDeps } from './app/routes/index.js'
export type { ErrorAnswerName } from './app/openapi/responses.js'
export type { Responder } from './app/responder.js'
export type { AppContext, AppState } from './app/app-state.js'
export { ERROR_CODES, type ErrorCode, type Problem } from './app/problem.js'
export { createClientErrorAnswer } from './server/client-error.js'
export {
  openApiDocument,
  openApiJson,
  type OpenApiOptions,
  type OpenApiServer,
} from './app/openapi/document.js'
export {
  createHttpServer,
  HTTP_LIMIT_DEFAULTS,
  type HttpLimits,
  type HttpServer,
} from './server/http-server.js'
export type { WireListener } from './server/root-app.js'
export { MAX_PIPELINED, OVERFLOW_CONNECTIONS, type Connections } from './server/connections.js'
export type { RequestObserver } from './app/middleware/observe.js'
export type { RequestLine, RequestRecord } from './app/request-log.js'
export { EXPOSED_HEADERS } from './app/middleware/cors.js'
export type { Rate, RateLimited, RateLimitOptions } from './app/rate-limits.js'
export { BEARER_TOKEN, bearerTokenOf, isBearerToken } from './app/bearer.js'
export { isTrustedProxyEntry, type TrustProxy } from './app/client-address.js'
