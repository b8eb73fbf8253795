import type { OperationId } from './operations.js'

/**
 * One code of an Error body: its HTTP status, when it is given (the words of http.md's table),
 * and the operations that can answer it: `'every'` operation (authentication, scope, rate
 * limit, the unexpected, a store or key store down), or a list, empty for the codes the HTTP
 * exchange or routing gives outside any operation.
 */
export type ErrorEntry = {
  readonly status: number
  readonly when: string
  readonly operations: 'every' | ReadonlyArray<OperationId>
}

/**
 * Every code of the Error body, in the order of its status. The routes' documented answers and
 * the types of what each route may answer are derived from `operations`, so an operation answers
 * a code only where this lists it (a route that could give another fails to compile).
 */
export const ERROR_CATALOGUE = {
  invalid_request: {
    status: 400,
    when: 'a field or parameter broke a rule',
    operations: ['listPets', 'createPet', 'getPet'],
  },
  invalid_json: {
    status: 400,
    when: 'the body is not one well-formed JSON document in UTF-8',
    operations: ['createPet'],
  },
  bad_request: {
    status: 400,
    when: 'the HTTP request itself is malformed (refused by the HTTP parser, an unknown method included)',
    operations: [],
  },
  unauthorized: { status: 401, when: 'the API key is missing or invalid', operations: 'every' },
  invalid_token: {
    status: 401,
    when: 'the API key has expired or was revoked',
    operations: 'every',
  },
  insufficient_scope: {
    status: 403,
    when: 'the API key lacks the scope the operation needs',
    operations: 'every',
  },
  not_found: { status: 404, when: 'no such pet, or no such path', operations: ['getPet'] },
  method_not_allowed: {
    status: 405,
    when: 'the path does not accept this method (see `Allow`)',
    operations: [],
  },
  request_timeout: { status: 408, when: 'the request did not arrive in time', operations: [] },
  idempotency_key_in_use: {
    status: 409,
    when: 'the first request with this `Idempotency-Key` is still in flight (or its instance died under 3 × `STORE_TIMEOUT_MS` ago); `Retry-After`',
    operations: ['createPet'],
  },
  gone: { status: 410, when: '`GET /pets/{petId}` after its sunset', operations: ['getPet'] },
  payload_too_large: {
    status: 413,
    when: 'the body is over the size limit',
    operations: ['createPet'],
  },
  unsupported_media_type: {
    status: 415,
    when: 'the body is not `application/json`',
    operations: ['createPet'],
  },
  expectation_failed: {
    status: 417,
    when: 'an `Expect` other than `100-continue`',
    operations: [],
  },
  idempotency_key_reused: {
    status: 422,
    when: 'this `Idempotency-Key` was first used with another body',
    operations: ['createPet'],
  },
  rate_limited: {
    status: 429,
    when: 'too many requests (per key), failed authentications or reference-page loads (per address); see `Retry-After`',
    operations: 'every',
  },
  headers_too_large: {
    status: 431,
    when: "the request headers are over Node's limit (16 KiB)",
    operations: [],
  },
  internal: {
    status: 500,
    when: 'an unexpected failure (details in the log)',
    operations: 'every',
  },
  not_implemented: {
    status: 501,
    when: '`GET /store/orders`; `CONNECT`; a transfer coding other than `chunked`; an `Idempotency-Key` sent to an embedding built without an idempotency store; `/docs` in an embedding without swagger-ui-dist',
    operations: ['createPet', 'listStoreOrders'],
  },
  unavailable: {
    status: 503,
    when: 'the store (of pets, or of keys: `API_KEYS_FILE` unreadable) cannot be reached, or too many connections; `Retry-After`',
    operations: 'every',
  },
  insufficient_storage: {
    status: 507,
    when: 'the in-memory store holds `MAX_PETS` pets, or (any store) every id up to 2^63-1 is used or passed: no more can be created; or the in-memory store holds `MAX_PETS` unexpired `Idempotency-Key`s and the create sends a new one; no `Retry-After`',
    operations: ['createPet'],
  },
} as const satisfies Readonly<Record<string, ErrorEntry>>

/** The `code` of an Error body. */
export type ErrorCode = keyof typeof ERROR_CATALOGUE

/**
 * The codes operation `K` can answer, by a catalogue of this shape (the catalogue's own unless
 * given: a test gives one with an entry changed).
 */
export type OperationErrorCode<
  K extends OperationId,
  C extends Readonly<Record<ErrorCode, ErrorEntry>> = typeof ERROR_CATALOGUE,
> = {
  [Code in ErrorCode]: C[Code]['operations'] extends 'every'
    ? Code
    : K extends Exclude<C[Code]['operations'], 'every'>[number]
      ? Code
      : never
}[ErrorCode]

/** The codes an operation can answer, in the catalogue's order; an unknown operation's, `'every'`. */
export const errorCodesOf = (operationId: string): ReadonlyArray<ErrorCode> =>
  (Object.keys(ERROR_CATALOGUE) as ErrorCode[]).filter((code) => {
    const { operations } = ERROR_CATALOGUE[code] as ErrorEntry
    return operations === 'every' || (operations as ReadonlyArray<string>).includes(operationId)
  })
