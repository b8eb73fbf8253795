/**
 * The HTTP adapter: `createKoaApp` builds the service's Koa app (mount it in a host Koa app, or
 * serve it with `createHttpServer`); the OpenAPI document, error codes and request records come
 * with it. Needs koa, @koa/router and @types/koa (optional peer dependencies).
 *
 * @module animal-store/koa
 */
/*
 * Layers, each importing only those above it in this list (docs/contributing.md, checked by
 * dependency-cruiser):
 * - request/: facts of a request (client address, bearer token, request id, the app's state).
 * - response/: how an answer is written, for app/ and server/ alike (answer/, its one entry: the
 *   header setter, status and body, what Koa's respond sends; the Error body and its problems).
 * - app/: the Koa application (createKoaApp): middleware, routes, OpenAPI, the docs page. A plain
 *   Koa app that anyone can serve with app.callback() or mount in a Koa host.
 * - server/: the node:http server that listens (createHttpServer): connection cap, wire guards,
 *   refusals sent outside Koa, 100-continue, shutdown helpers, and the writer that drives the
 *   app as the server's root application. It never imports app/, nor app/ server/.
 */
export { createKoaApp } from './app/create-koa-app.js'
export type { KoaAppDeps, KoaAppOptions } from './app/koa-app-inputs.js'
export {
  API_SETTING_DEFAULTS,
  type ApiSettingOptions,
  type ApiSettings,
} from './app/api-settings.js'
export type { DeprecationPolicy } from './app/deprecation.js'
export {
  ROUTES,
  type OperationText,
  type Route,
  type RouteDeps,
  type RouteProblem,
  type RouteTable,
} from './app/routes/index.js'
export type { ErrorAnswerName } from './response/error-answers.js'
export type { Responder } from './response/answer/index.js'
export type { AppContext, AppState } from './request/app-state.js'
export {
  ERROR_CODES,
  type ErrorCode,
  type Problem,
  type ProblemAnswering,
  type ProblemCodes,
  type RateLimited,
} from './response/problem.js'
export { createClientErrorAnswer } from './server/raw-error-answer.js'
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
export type {
  RequestTrace,
  RequestTracer,
  TracedAnswer,
  TraceLogFields,
} from './request/request-trace.js'
export type { RequestLine, RequestRecord } from './app/request-log.js'
export type { PetJsonCache } from './app/json/pet-json.js'
export { EXPOSED_HEADERS } from './response/header-names.js'
export type { Rate, RateLimitOptions } from './app/rate-limits.js'
export { BEARER_TOKEN, bearerTokenOf, isBearerToken } from './request/bearer.js'
export { isTrustedProxyEntry, type ProxyHeader, type TrustProxy } from './request/proxy-trust.js'
