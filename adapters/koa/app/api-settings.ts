import {
  GET_PET_DEPRECATION,
  IDEMPOTENCY_DEFAULTS,
  LIST_LIMITS,
  type IdempotencyPolicy,
  type ListLimits,
} from '../../../core/index.js'
import type { DeprecationPolicy } from './deprecation.js'

/**
 * The facts of the API that a deployment sets. The service builds them once
 * (apps/server/api-options.ts); the routes, the middleware and the OpenAPI document all read
 * this one object, so what the document says is what the code does.
 */
export type ApiSettings = {
  /** Where the API lives, e.g. `/v1`: no trailing slash. */
  readonly basePath: string
  /** The largest request body, in bytes; a larger one is answered 413. */
  readonly maxBodyBytes: number
  /** The page sizes a listing accepts, and its default. */
  readonly listLimits: ListLimits
  /** What a 503 tells the client to wait. */
  readonly retryAfterSeconds: number
  /** When the deprecated operations were deprecated, and when they go. */
  readonly deprecation: DeprecationPolicy
  /**
   * How long an Idempotency-Key is kept, and how long a keyed create holds it before a retry may
   * take over (the first may have died): at least the longest a create can take.
   */
  readonly idempotencyPolicy: IdempotencyPolicy
}

/**
 * The interface's own settings: an app or a document given none of them has these. The service
 * reads its environment into the same values (apps/server/config.ts).
 */
export const API_SETTING_DEFAULTS: ApiSettings = {
  basePath: '/v1',
  // Room for the largest NewPet with every character escaped (test/apps/api-options.test.ts).
  maxBodyBytes: 8192,
  listLimits: LIST_LIMITS,
  retryAfterSeconds: 2,
  deprecation: {
    deprecatedAt: GET_PET_DEPRECATION.defaultDeprecatedAt,
    sunsetAt: GET_PET_DEPRECATION.sunsetAt,
  },
  idempotencyPolicy: IDEMPOTENCY_DEFAULTS,
}

/**
 * The API settings an embedder gives: each one it leaves out (or gives as undefined) is the
 * interface's, from {@link API_SETTING_DEFAULTS}.
 */
export type ApiSettingOptions = {
  /**
   * Where the API lives: no trailing slash.
   *
   * @defaultValue `'/v1'`
   */
  readonly basePath?: string | undefined
  /**
   * The largest request body, in bytes; a larger one is answered 413.
   *
   * @defaultValue `8192`
   */
  readonly maxBodyBytes?: number | undefined
  /**
   * The page sizes a listing accepts, and its default.
   *
   * @defaultValue `LIST_LIMITS`: from 1 to 100, 20 when the request names none
   */
  readonly listLimits?: ListLimits | undefined
  /**
   * What a 503 tells the client to wait, in seconds (`Retry-After`).
   *
   * @defaultValue `2`
   */
  readonly retryAfterSeconds?: number | undefined
  /**
   * When the deprecated operation (getPet) was deprecated, and when it goes.
   *
   * @defaultValue `{ deprecatedAt: GET_PET_DEPRECATION.defaultDeprecatedAt, sunsetAt: GET_PET_DEPRECATION.sunsetAt }`
   */
  readonly deprecation?: DeprecationPolicy | undefined
  /**
   * How long an Idempotency-Key is kept, and how long a keyed create holds it before a retry may
   * take over: at least the longest a create can take.
   *
   * @defaultValue `IDEMPOTENCY_DEFAULTS`: kept 24 hours, held 30 seconds
   */
  readonly idempotencyPolicy?: IdempotencyPolicy | undefined
}

/** Every setting: the one given, else the interface's. */
export const apiSettingsOf = (given: ApiSettingOptions): ApiSettings => ({
  basePath: given.basePath ?? API_SETTING_DEFAULTS.basePath,
  maxBodyBytes: given.maxBodyBytes ?? API_SETTING_DEFAULTS.maxBodyBytes,
  listLimits: given.listLimits ?? API_SETTING_DEFAULTS.listLimits,
  retryAfterSeconds: given.retryAfterSeconds ?? API_SETTING_DEFAULTS.retryAfterSeconds,
  deprecation: given.deprecation ?? API_SETTING_DEFAULTS.deprecation,
  idempotencyPolicy: given.idempotencyPolicy ?? API_SETTING_DEFAULTS.idempotencyPolicy,
})
