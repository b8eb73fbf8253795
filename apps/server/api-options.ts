import {
  API_SETTING_DEFAULTS,
  type ApiSettings,
  type KoaAppOptions,
} from '../../adapters/koa/index.js'
import { GET_PET_DEPRECATION, IDEMPOTENCY_DEFAULTS, LIST_LIMITS } from '../../core/index.js'
import type { Config } from './config.js'

/**
 * How long a keyed create holds its Idempotency-Key, in store timeouts: a store call ends within
 * two whatever the database does (the MongoDB adapter's hard bound, HARD_BOUND_FACTOR, which a
 * test holds this above), so the insert is over by then; one more to spare. An instance that
 * dies mid-create leaves its keys held no longer than this.
 */
export const LEASE_IN_STORE_TIMEOUTS = 3

/**
 * Everything the HTTP app is told, built once from the configuration: the service's app and
 * `npm run openapi` (print-openapi.ts) both take their facts from here. Every setting is given,
 * so a test reads back what the app answers by.
 */
export const apiOptionsOf = (config: Config): ApiSettings & KoaAppOptions => ({
  basePath: config.basePath,
  maxBodyBytes: API_SETTING_DEFAULTS.maxBodyBytes,
  listLimits: LIST_LIMITS,
  retryAfterSeconds: config.retryAfterSeconds,
  deprecation: { deprecatedAt: config.getPetDeprecatedAt, sunsetAt: GET_PET_DEPRECATION.sunsetAt },
  idempotencyPolicy: {
    ...IDEMPOTENCY_DEFAULTS,
    leaseMs: LEASE_IN_STORE_TIMEOUTS * config.storeTimeoutMs,
  },
  openApiServers: [
    { url: config.productionUrl, description: 'Production' },
    { url: config.stagingUrl, description: 'Staging' },
  ],
  corsOrigins: config.corsOrigins,
  logProbes: config.logProbes,
  trustProxy: config.trustProxy,
  ...(config.rateLimits === undefined ? {} : { rateLimits: config.rateLimits }),
})
