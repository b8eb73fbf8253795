export { createKoaApp, type KoaAppDeps, type KoaAppOptions } from './create-koa-app.js'
export {
  GET_PET_SUNSET,
  GET_PET_DEPRECATED_DEFAULT,
  type DeprecationPolicy,
} from './deprecation.js'
export { ERROR_CODES, type ErrorCode } from './problem.js'
export { silentLogger, type Logger } from './logger.js'
export { answerClientError } from './client-error.js'
export { openApiDocument, openApiJson, type OpenApiOptions } from './openapi/document.js'
export { type RateLimitOptions } from './rate-limits.js'
