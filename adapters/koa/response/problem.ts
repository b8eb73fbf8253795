import { ERROR_CODES, INT64_MAX, type DomainError, type ErrorCode } from '../../../core/index.js'

/** Everything that can go wrong in a request: the domain's errors and the HTTP layer's own. */
export type Problem =
  | DomainError
  | { readonly _tag: 'MalformedJson'; readonly detail: string }
  | { readonly _tag: 'UnsupportedMediaType'; readonly detail: string }
  | { readonly _tag: 'PayloadTooLarge'; readonly maxBytes: number }
  | { readonly _tag: 'RouteNotFound' }
  | { readonly _tag: 'MethodNotAllowed'; readonly allow: ReadonlyArray<string> }
  | { readonly _tag: 'Gone'; readonly detail: string }
  | { readonly _tag: 'NotImplemented'; readonly detail?: string }
  | { readonly _tag: 'Internal' }
  | RateLimited

export { ERROR_CODES, type ErrorCode }

/** A refusal for a spent budget: how long until one more request is allowed. */
export type RateLimited = { readonly _tag: 'RateLimited'; readonly retryAfterSeconds: number }

export type ErrorResponse = {
  readonly code: ErrorCode
  readonly message: string
  readonly headers?: Readonly<Record<string, string>>
}

const REALM = 'Bearer realm="animal-store"'

/** The codes each problem is answered with: what `toErrorResponse` gives, and nothing else. */
export type ProblemCodes = {
  readonly InvalidInput: 'invalid_request'
  readonly MalformedJson: 'invalid_json'
  readonly Unauthenticated: 'unauthorized' | 'invalid_token'
  readonly InsufficientScope: 'insufficient_scope'
  readonly RateLimited: 'rate_limited'
  readonly PetNotFound: 'not_found'
  readonly RouteNotFound: 'not_found'
  readonly MethodNotAllowed: 'method_not_allowed'
  readonly Gone: 'gone'
  readonly PayloadTooLarge: 'payload_too_large'
  readonly UnsupportedMediaType: 'unsupported_media_type'
  readonly NotImplemented: 'not_implemented'
  readonly StoreUnavailable: 'unavailable'
  readonly UnreadablePet: 'internal'
  readonly StoreFull: 'insufficient_storage'
  readonly IdempotencyKeysFull: 'insufficient_storage'
  readonly IdempotencyKeyInUse: 'idempotency_key_in_use'
  readonly ShuttingDown: 'unavailable'
  readonly IdempotencyKeyReused: 'idempotency_key_reused'
  readonly Internal: 'internal'
}

const tooManyKeys = (capacity: number) =>
  `the store holds as many Idempotency-Keys as it may (${capacity}): a create with a new key is refused until older keys expire; a create without a key is not affected`

/**
 * The one place where a problem becomes an HTTP status, an Error body and headers: one answer per
 * tag, each giving only the codes {@link ProblemCodes} lists for it.
 */
const ANSWERS = {
  InvalidInput: (p) => ({ code: 'invalid_request', message: p.problems.join('; ') }),
  MalformedJson: (p) => ({ code: 'invalid_json', message: p.detail }),
  Unauthenticated: (p) => {
    if (p.lapsed !== undefined) {
      // One wording for the body and the challenge.
      const message = `the API key ${p.lapsed === 'expired' ? 'has expired' : 'was revoked'}`
      const challenge = `${REALM}, error="invalid_token", error_description="${message}"`
      return { code: 'invalid_token', message, headers: { 'WWW-Authenticate': challenge } }
    }
    return p.presented
      ? {
          code: 'unauthorized',
          message: 'the API key is malformed or not valid',
          headers: { 'WWW-Authenticate': `${REALM}, error="invalid_token"` },
        }
      : {
          code: 'unauthorized',
          message: 'an API key is required: send Authorization: Bearer <API key>',
          headers: { 'WWW-Authenticate': REALM },
        }
  },
  InsufficientScope: (p) => ({
    code: 'insufficient_scope',
    message: `the API key lacks the scope ${p.scope}`,
    headers: {
      'WWW-Authenticate': `${REALM}, error="insufficient_scope", scope="${p.scope}"`,
    },
  }),
  RateLimited: (p) => ({
    code: 'rate_limited',
    message: 'too many requests: slow down and retry later',
    headers: { 'Retry-After': String(p.retryAfterSeconds) },
  }),
  PetNotFound: (p) => ({ code: 'not_found', message: `no pet has the id ${p.id}` }),
  RouteNotFound: () => ({ code: 'not_found', message: 'no such resource' }),
  MethodNotAllowed: (p) => ({
    code: 'method_not_allowed',
    message: `this resource accepts ${p.allow.join(', ')}`,
    headers: { Allow: p.allow.join(', ') },
  }),
  Gone: (p) => ({ code: 'gone', message: p.detail }),
  PayloadTooLarge: (p) => ({
    code: 'payload_too_large',
    message: `the body must be at most ${p.maxBytes} bytes`,
    headers: { Connection: 'close' },
  }),
  UnsupportedMediaType: (p) => ({ code: 'unsupported_media_type', message: p.detail }),
  NotImplemented: (p) => ({
    code: 'not_implemented',
    message: p.detail ?? 'this operation is not available',
  }),
  StoreUnavailable: (_, retryAfterSeconds) => ({
    code: 'unavailable',
    message: 'the store is unavailable, try again later',
    headers: { 'Retry-After': String(retryAfterSeconds) },
  }),
  UnreadablePet: (p) => ({
    code: 'internal',
    message: `the pet ${p.id} is stored in a form this version cannot read; the operator is told`,
  }),
  StoreFull: (p) => ({
    code: 'insufficient_storage',
    message:
      p.capacity === undefined
        ? `every pet identifier up to ${INT64_MAX} is used or passed: nothing more can be created`
        : `the store is full (${p.capacity} pets): nothing more can be created`,
  }),
  IdempotencyKeysFull: (p) => ({ code: 'insufficient_storage', message: tooManyKeys(p.capacity) }),
  IdempotencyKeyInUse: (p, retryAfterSeconds) => ({
    code: 'idempotency_key_in_use',
    message: 'a request with this Idempotency-Key is still being processed; retry later',
    // The usual wait, but never past the moment the first request's hold lapses: from then
    // a retry takes over (the first may have died with its instance).
    headers: {
      'Retry-After': String(
        Math.min(retryAfterSeconds, Math.max(1, Math.ceil(p.leaseEndsInMs / 1000))),
      ),
    },
  }),
  ShuttingDown: (_, retryAfterSeconds) => ({
    code: 'unavailable',
    message: 'this instance is shutting down; send requests to another',
    headers: { 'Retry-After': String(retryAfterSeconds) },
  }),
  IdempotencyKeyReused: () => ({
    code: 'idempotency_key_reused',
    message: 'this Idempotency-Key was used with another body; use a new key for a new pet',
  }),
  Internal: () => ({ code: 'internal', message: 'an unexpected error occurred' }),
} satisfies {
  readonly [T in Problem['_tag']]: (
    problem: Extract<Problem, { readonly _tag: T }>,
    retryAfterSeconds: number,
  ) => ErrorResponse & { readonly code: ProblemCodes[T] }
}

/** The problems answered with one of these codes: what an operation that may give them may meet. */
export type ProblemAnswering<C extends ErrorCode> = {
  [T in Problem['_tag']]: [Extract<ProblemCodes[T], C>] extends [never]
    ? never
    : Extract<Problem, { readonly _tag: T }>
}[Problem['_tag']]

/** The status, Error body and headers of a problem. */
export const toErrorResponse = (problem: Problem, retryAfterSeconds: number): ErrorResponse =>
  (ANSWERS[problem._tag] as (p: Problem, retryAfterSeconds: number) => ErrorResponse)(
    problem,
    retryAfterSeconds,
  )

/** The Error body. Built by hand in one fixed field order; the message is escaped by JSON.stringify. */
export const errorBody = (code: ErrorCode, message: string): string =>
  `{"code":"${code}","message":${JSON.stringify(message)},"status":${ERROR_CODES[code]}}`
