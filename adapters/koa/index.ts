export { createKoaApp, type KoaAppDeps, type KoaAppOptions } from './create-koa-app.js'
export {
  GET_PET_SUNSET,
  GET_PET_DEPRECATED_DEFAULT,
  type DeprecationPolicy,
} from './deprecation.js'
export { ERROR_CODES, type ErrorCode } from './problem.js'
export { createClientErrorAnswer } from './client-error.js'
export { openApiDocument, openApiJson, type OpenApiOptions } from './openapi/document.js'
export { createHttpServer, type HttpLimits, type HttpServer } from './http-server.js'
export { MAX_PIPELINED, OVERFLOW_CONNECTIONS, type Connections } from './connections.js'
export type { RequestObserver } from './middleware/observe.js'
export type { RequestLine, RequestRecord } from './request-log.js'
export { EXPOSED_HEADERS } from './middleware/cors.js'
export { type RateLimitOptions } from './rate-limits.js'
export { BEARER_TOKEN, bearerTokenOf, isBearerToken } from './bearer.js'
