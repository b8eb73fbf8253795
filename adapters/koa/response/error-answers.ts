import {
  ERROR_CATALOGUE,
  ERROR_CODES,
  type ErrorCode,
  type ErrorEntry,
} from '../../../core/index.js'
import type { HeaderName } from './header-names.js'

/** One documented error answer: its status, what it means, the headers it adds. */
export type ErrorAnswer = {
  status: number
  description: string
  headers?: ReadonlyArray<HeaderName>
}

/**
 * The documented answer of each status an operation can give (its codes come from the
 * catalogue), by the name an embedding's own route uses for it.
 */
export const ERROR_ANSWERS = {
  BadRequest: {
    status: 400,
    description:
      'The request is invalid: the message names each field or parameter and the rule it broke.',
  },
  Unauthorized: {
    status: 401,
    description:
      'The API key is missing or unknown (`unauthorized`), or expired or revoked (`invalid_token`).',
    headers: ['WWW-Authenticate'],
  },
  Forbidden: {
    status: 403,
    description:
      'The API key is valid but lacks the scope the operation needs; `WWW-Authenticate` names it (RFC 6750).',
    headers: ['WWW-Authenticate'],
  },
  TooManyRequests: {
    status: 429,
    description:
      'Too many requests with this API key, or too many failed authentications from this address; wait `Retry-After` seconds.',
    headers: ['Retry-After'],
  },
  NotFound: {
    status: 404,
    description: 'The requested animal does not exist.',
  },
  IdempotencyKeyInUse: {
    status: 409,
    description:
      'The first request with this Idempotency-Key is still being processed, or presumed to be: a request holds its key for a bounded time (its lease), so a key left by an instance that died frees itself. Retry after `Retry-After` seconds, which never points past that moment.',
    headers: ['Retry-After'],
  },
  IdempotencyKeyReused: {
    status: 422,
    description:
      'This Idempotency-Key was first used with another body; a new pet needs a new key.',
  },
  Gone: { status: 410, description: 'The operation was removed at its sunset.' },
  PayloadTooLarge: {
    status: 413,
    description: 'The body is larger than the limit.',
  },
  UnsupportedMediaType: {
    status: 415,
    description: 'The body is not sent as application/json.',
  },
  Internal: {
    status: 500,
    description: 'An unexpected failure; the details are only in the service log.',
  },
  NotImplemented: {
    status: 501,
    description: 'Part of the wider interface, not available here.',
  },
  InsufficientStorage: {
    status: 507,
    description:
      'The store can take no more pets: it is at its configured capacity (the in-memory store holds at most MAX_PETS), or every identifier up to 2^63-1 is used or passed (ids are never reused). Retrying cannot help.',
  },
  Unavailable: {
    status: 503,
    description: 'The store cannot be reached; retry later.',
    headers: ['Retry-After'],
  },
} satisfies Record<string, ErrorAnswer>

/** The error answers an embedding's own route may list, each one documented response. */
export type ErrorAnswerName = keyof typeof ERROR_ANSWERS

type OperationCode = {
  [C in ErrorCode]: (typeof ERROR_CATALOGUE)[C]['operations'] extends readonly [] ? never : C
}[ErrorCode]

/** A status some operation can answer whose answer is not written above fails to compile. */
type Undocumented = Exclude<
  (typeof ERROR_CODES)[OperationCode],
  (typeof ERROR_ANSWERS)[ErrorAnswerName]['status']
>
export const everyStatusDocumented: [Undocumented] extends [never] ? true : Undocumented = true

/** The answer documented for a status. */
export const errorAnswerOf = (status: number): ErrorAnswer => {
  const found = Object.values(ERROR_ANSWERS).find((answer) => answer.status === status)
  if (found === undefined) throw new Error(`no error answer is documented for ${status}`)
  return found
}

/** The codes an operation may answer with this status. */
export const codesAnsweredBy = (status: number): ReadonlyArray<ErrorCode> =>
  (Object.keys(ERROR_CATALOGUE) as ErrorCode[]).filter((code) => {
    const { operations } = ERROR_CATALOGUE[code] as ErrorEntry
    return ERROR_CODES[code] === status && (operations === 'every' || operations.length > 0)
  })
