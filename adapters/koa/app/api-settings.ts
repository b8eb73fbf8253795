import type { IdempotencyPolicy, ListLimits } from '../../../core/index.js'
import type { DeprecationPolicy } from './deprecation.js'

/**
 * The facts of the API that a deployment sets. The service builds them once
 * (apps/server/api-options.ts); the routes, the middleware and the OpenAPI document all read
 * this one object, so what the document says is what the code does.
 */
export type ApiSettings = {
  /** Where the API lives, e.g. `/v1`: no trailing slash. */
  readonly basePath: string
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
