import * as t from 'io-ts'
import { ERROR_CATALOGUE, type ErrorCode } from './error-catalogue.js'

export type { ErrorCode }

/**
 * Each code of the Error body with its status, from the catalogue: the service answers with them
 * and the client switches on them, so both sides name the same set.
 */
export const ERROR_CODES = Object.fromEntries(
  Object.entries(ERROR_CATALOGUE).map(([code, { status }]) => [code, status]),
) as { readonly [C in ErrorCode]: (typeof ERROR_CATALOGUE)[C]['status'] }

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
