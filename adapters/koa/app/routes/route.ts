import type { RouterMiddleware } from '@koa/router'
import type {
  IdempotencyStore,
  Operation,
  OperationErrorCode,
  OperationId,
  PetStore,
} from '../../../../core/index.js'
import type { ApiSettings } from '../api-settings.js'
import type { AppContext, AppState } from '../../request/app-state.js'
import type { ErrorAnswerName } from '../../response/error-answers.js'
import type { Problem, ProblemAnswering } from '../../response/problem.js'
import type { OperationText } from './operation-text.js'
import type { PetJsonCache } from '../json/pet-json.js'
import type { Responder } from '../../response/answer/index.js'

/**
 * What a route's handler is built from: the settings, and the ports it calls; its responder
 * takes the problems its operation may answer (`P`).
 */
export type RouteDeps<P extends Problem = Problem> = ApiSettings & {
  readonly store: PetStore
  /** Idempotency keys of POST /pets; only a request that sends one touches it. */
  readonly idempotencyStore?: IdempotencyStore
  readonly respond: Responder<P>
  /** The clock, in epoch milliseconds (the sunset of a deprecated route is checked per request). */
  readonly now: () => number
  /** Where this request's client reaches the base path: links the route writes start with it. */
  readonly publicBase: (ctx: AppContext) => string
  /** The JSON of pets read lately, this app's own. */
  readonly petJson: PetJsonCache
}

/**
 * One operation of the API: its facts on the wire (the core's `OPERATIONS` entry, shared with the
 * client) and everything the router, guardApi and the OpenAPI document add.
 */
export type Route<K extends string = string> = Operation & {
  readonly operationId: K
  /**
   * For an operation of the interface, nothing: its error answers are the catalogue's
   * (`ERROR_CATALOGUE`). For an embedding's own, those it gives besides the ones every operation
   * can (401, 403, 429, 500, 503).
   */
  readonly errors?: K extends OperationId ? never : ReadonlyArray<ErrorAnswerName>
  /**
   * The rest of its OpenAPI operation object: summary, description, parameters, request body,
   * 2xx. Its header parameters, and `Content-Type` when it has a body, are also what a browser's
   * preflight may ask to send.
   */
  readonly document: (settings: ApiSettings) => OperationText
  /** Builds the operation's Koa middleware once, from the settings and the ports. */
  readonly handler: (deps: RouteDeps<RouteProblem<K>>) => RouterMiddleware<AppState>
}

/**
 * The problems a route may answer: for an operation of the interface, those answered with a code
 * the catalogue lists for it, so a handler that could give another fails to compile.
 */
export type RouteProblem<K extends string> = K extends OperationId
  ? ProblemAnswering<OperationErrorCode<K>>
  : Problem

/** A route table: one route for each key, the key being its operationId. */
export type RouteTable = Readonly<Record<string, Route>>
