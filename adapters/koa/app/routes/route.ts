import type { RouterMiddleware } from '@koa/router'
import type { IdempotencyStore, Operation, PetStore } from '../../../../core/index.js'
import type { AppState } from '../app-state.js'
import type { ErrorAnswerName } from '../openapi/responses.js'
import type { Responder } from '../responder.js'

/** What a route's handler is built from. */
export type RouteDeps = {
  readonly store: PetStore
  /** Idempotency keys of POST /pets; only a request that sends one touches it. */
  readonly idempotency?: IdempotencyStore
  /** How long a keyed create holds its key (IDEMPOTENCY_DEFAULTS.leaseMs when absent). */
  readonly idempotencyLeaseMs?: number
  readonly basePath: string
  readonly maxBodyBytes: number
  readonly respond: Responder
  /** The clock, in epoch milliseconds (the sunset of a deprecated route is checked per request). */
  readonly now: () => number
}

/** What the OpenAPI document needs to know of the running service. */
export type DocumentOptions = { readonly maxBodyBytes: number }

/**
 * One operation of the API: its facts on the wire (the core's `OPERATIONS` entry, shared with the
 * client) and everything the router, the gate and the OpenAPI document add. Adding an endpoint is
 * one of these (and its use case), added to the table in `index.ts`.
 */
export type Route = Operation & {
  /**
   * The error answers it can give besides those every operation can: 401, 403, 429, 500, and 503
   * (authentication looks the key up, and a key store can be down).
   */
  readonly errors: ReadonlyArray<ErrorAnswerName>
  /** The rest of its OpenAPI operation object: summary, description, parameters, 2xx. */
  readonly document: (options: DocumentOptions) => Readonly<Record<string, unknown>>
  readonly handler: (deps: RouteDeps) => RouterMiddleware<AppState>
}
