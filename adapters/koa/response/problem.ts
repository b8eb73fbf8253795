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

/** The one place where a problem becomes an HTTP status, an Error body and headers. */
export const toErrorResponse = (problem: Problem, retryAfterSeconds: number): ErrorResponse => {
  switch (problem._tag) {
    case 'InvalidInput':
      return { code: 'invalid_request', message: problem.problems.join('; ') }
    case 'MalformedJson':
      return { code: 'invalid_json', message: problem.detail }
    case 'Unauthenticated':
      if (problem.lapsed !== undefined) {
        // One wording for the body and the challenge.
        const message = `the API key ${problem.lapsed === 'expired' ? 'has expired' : 'was revoked'}`
        return {
          code: 'invalid_token',
          message,
          headers: {
            'WWW-Authenticate': `${REALM}, error="invalid_token", error_description="${message}"`,
          },
        }
      }
      return problem.presented
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
    case 'InsufficientScope':
      return {
        code: 'insufficient_scope',
        message: `the API key lacks the scope ${problem.scope}`,
        headers: {
          'WWW-Authenticate': `${REALM}, error="insufficient_scope", scope="${problem.scope}"`,
        },
      }
    case 'RateLimited':
      return {
        code: 'rate_limited',
        message: 'too many requests: slow down and retry later',
        headers: { 'Retry-After': String(problem.retryAfterSeconds) },
      }
    case 'PetNotFound':
      return { code: 'not_found', message: `no pet has the id ${problem.id}` }
    case 'RouteNotFound':
      return { code: 'not_found', message: 'no such resource' }
    case 'MethodNotAllowed':
      return {
        code: 'method_not_allowed',
        message: `this resource accepts ${problem.allow.join(', ')}`,
        headers: { Allow: problem.allow.join(', ') },
      }
    case 'Gone':
      return { code: 'gone', message: problem.detail }
    case 'PayloadTooLarge':
      return {
        code: 'payload_too_large',
        message: `the body must be at most ${problem.maxBytes} bytes`,
        headers: { Connection: 'close' },
      }
    case 'UnsupportedMediaType':
      return { code: 'unsupported_media_type', message: problem.detail }
    case 'NotImplemented':
      return {
        code: 'not_implemented',
        message: problem.detail ?? 'this operation is not available',
      }
    case 'StoreUnavailable':
      return {
        code: 'unavailable',
        message: 'the store is unavailable, try again later',
        headers: { 'Retry-After': String(retryAfterSeconds) },
      }
    case 'StoreFull':
      return {
        code: 'insufficient_storage',
        message:
          problem.capacity === undefined
            ? `every pet identifier up to ${INT64_MAX} is used or passed: nothing more can be created`
            : `the store is full (${problem.capacity} pets): nothing more can be created`,
      }
    case 'IdempotencyKeysFull':
      return {
        code: 'insufficient_storage',
        message: `the store holds as many Idempotency-Keys as it may (${problem.capacity}): a create with a new key is refused until older keys expire; a create without a key is not affected`,
      }
    case 'IdempotencyKeyInUse':
      return {
        code: 'idempotency_key_in_use',
        message: 'a request with this Idempotency-Key is still being processed; retry later',
        // The usual wait, but never past the moment the first request's hold lapses: from then
        // a retry takes over (the first may have died with its instance).
        headers: {
          'Retry-After': String(
            Math.min(retryAfterSeconds, Math.max(1, Math.ceil(problem.leaseEndsInMs / 1000))),
          ),
        },
      }
    case 'ShuttingDown':
      return {
        code: 'unavailable',
        message: 'this instance is shutting down; send requests to another',
        headers: { 'Retry-After': String(retryAfterSeconds) },
      }
    case 'IdempotencyKeyReused':
      return {
        code: 'idempotency_key_reused',
        message: 'this Idempotency-Key was used with another body; use a new key for a new pet',
      }
    case 'Internal':
      return { code: 'internal', message: 'an unexpected error occurred' }
  }
}

/** The Error body. Built by hand in one fixed field order; the message is escaped by JSON.stringify. */
export const errorBody = (code: ErrorCode, message: string): string =>
  `{"code":"${code}","message":${JSON.stringify(message)},"status":${ERROR_CODES[code]}}`
