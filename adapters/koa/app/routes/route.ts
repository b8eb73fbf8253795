import type { RouterMiddleware } from '@koa/router'
import type { IdempotencyStore, Operation, PetStore } from '../../../../core/index.js'
import type { ApiSettings } from '../api-settings.js'
import type { AppState } from '../app-state.js'
import type { Responder } from '../responder.js'

/** What a route's handler is built from: the settings, and the ports it calls. */
export type RouteDeps = ApiSettings & {
  readonly store: PetStore
  /** Idempotency keys of POST /pets; only a request that sends one touches it. */
  readonly idempotencyStore?: IdempotencyStore
  readonly respond: Responder
  /** The clock, in epoch milliseconds (the sunset of a deprecated route is checked per request). */
  readonly now: () => number
}

/**
 * An error answer an operation may give, by name; the OpenAPI document describes each (status,
 * codes, headers) in `openapi/responses.ts`, which must describe exactly these.
 */
export type ErrorAnswerName =
  | 'BadRequest'
  | 'Unauthorized'
  | 'Forbidden'
  | 'TooManyRequests'
  | 'NotFound'
  | 'IdempotencyKeyInUse'
  | 'IdempotencyKeyReused'
  | 'Gone'
  | 'PayloadTooLarge'
  | 'UnsupportedMediaType'
  | 'Internal'
  | 'NotImplemented'
  | 'InsufficientStorage'
  | 'Unavailable'

/** A header a success answer may carry besides those every answer carries. */
export type AnswerHeader = 'Location' | 'Idempotent-Replayed' | 'Link'

/** A parameter the document defines once (`components.parameters`), named by its name. */
export type SharedParameter = 'petId' | 'limit' | 'status' | 'after'

/**
 * One operation of the API: its facts on the wire (the core's `OPERATIONS` entry, shared with the
 * client) and everything the router, the front door and the OpenAPI document add.
 */
export type Route<K extends string = string> = Operation & {
  readonly operationId: K
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

/**
 * The part of an OpenAPI operation a route writes itself, as data: the document (openapi/) turns
 * it into OpenAPI objects, so routes never depend on the document.
 */
export type OperationText = {
  readonly summary: string
  readonly description: string
  /** A shared parameter by name, or an OpenAPI parameter object. */
  readonly parameters?: ReadonlyArray<SharedParameter | object>
  readonly requestBody?: object
  /** The answer with the operation's success status; none documented when absent. */
  readonly answer?: AnswerText
}

/** A success answer: its body's schema (none: a 204 without a body), its own headers, its links. */
export type AnswerText = {
  readonly description: string
  /** A schema of the document's `components.schemas`: `Pet`, `Pets`. */
  readonly body?: string
  readonly headers?: ReadonlyArray<AnswerHeader>
  readonly links?: Readonly<Record<string, object>>
}

/** The route table: one route for each key, the key being its operationId. */
export type RouteTable = Readonly<Record<string, Route>>
