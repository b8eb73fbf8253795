import * as t from 'io-ts'

/**
 * The stable set of an Error body's `code` values, each with its status: the service answers
 * with them and the client switches on them, so both sides name the same set.
 */
export const ERROR_CODES = {
  invalid_request: 400,
  invalid_json: 400,
  bad_request: 400,
  unauthorized: 401,
  invalid_token: 401,
  insufficient_scope: 403,
  not_found: 404,
  method_not_allowed: 405,
  request_timeout: 408,
  idempotency_key_in_use: 409,
  gone: 410,
  payload_too_large: 413,
  unsupported_media_type: 415,
  expectation_failed: 417,
  idempotency_key_reused: 422,
  rate_limited: 429,
  headers_too_large: 431,
  internal: 500,
  not_implemented: 501,
  unavailable: 503,
  insufficient_storage: 507,
} as const
/** The `code` of an Error body. */
export type ErrorCode = keyof typeof ERROR_CODES

/** The Error body every failure answer carries. */
export type ErrorBody = {
  readonly code: ErrorCode
  readonly message: string
  readonly status: number
}

const fields = t.type({ code: t.keyof(ERROR_CODES), message: t.string, status: t.unknown })

/**
 * The Error body as a codec: an unknown code, or a status that is not its code's, is refused.
 * The status comes as a bigint from the exact JSON reader, or a number from anything else.
 */
export const ErrorBody = new t.Type<ErrorBody, unknown, unknown>(
  'ErrorBody',
  (u): u is ErrorBody => ErrorBody.validate(u, [])._tag === 'Right',
  (u, c) => {
    const decoded = fields.validate(u, c)
    if (decoded._tag === 'Left') return decoded
    const { code, message, status } = decoded.right
    return Number(status) === ERROR_CODES[code]
      ? t.success({ code, message, status: ERROR_CODES[code] })
      : t.failure(u, c, `status must be ${ERROR_CODES[code]}, the status of ${code}`)
  },
  (body) => body,
)
