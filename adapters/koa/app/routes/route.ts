import type { RouterMiddleware } from '@koa/router'
import type { IdempotencyStore, Operation, PetStore } from '../../../../core/index.js'
import type { ApiSettings } from '../api-settings.js'
import type { AppContext, AppState } from '../../request/app-state.js'
import type { ErrorAnswerName } from '../../response/error-answers.js'
import type { OperationText } from './operation-text.js'
import type { PetJsonCache } from '../json/pet-json.js'
import type { Responder } from '../../response/answer/index.js'

/** What a route's handler is built from: the settings, and the ports it calls. */
export type RouteDeps = ApiSettings & {
  readonly store: PetStore
  /** Idempotency keys of POST /pets; only a request that sends one touches it. */
  readonly idempotencyStore?: IdempotencyStore
  readonly respond: Responder
  /** The clock, in epoch milliseconds (the sunset of a deprecated route is checked per request). */
  readonly now: () => number
  /** Where this request's client reaches the base path: links the route writes start with it. */
  readonly publicBase: (ctx: AppContext) => string
  /** The JSON of pets read lately, this app's own. */
  readonly petJson: PetJsonCache
}

/**
 * One operation of the API: its facts on the wire (the core's `OPERATIONS` entry, shared with the
 * client) and everything the router, guardApi and the OpenAPI document add. Adding an endpoint is
 * one of these (and its use case), added to the table in `index.ts`.
 */
export type Route = Operation & {
  /**
   * The error answers it can give besides those every operation can: 401, 403, 429, 500, and 503
   * (authentication looks the key up, and a key store can be down).
   */
  readonly errors: ReadonlyArray<ErrorAnswerName>
  /**
   * The rest of its OpenAPI operation object: summary, description, parameters, request body,
   * 2xx. Its header parameters, and `Content-Type` when it has a body, are also what a browser's
   * preflight may ask to send.
   */
  readonly document: (settings: ApiSettings) => OperationText
  /** Builds the operation's Koa middleware once, from the settings and the ports. */
  readonly handler: (deps: RouteDeps) => RouterMiddleware<AppState>
}
