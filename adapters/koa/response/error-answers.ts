import type { HeaderName } from './header-names.js'
import type { ErrorCode } from './problem.js'

/** One error answer: its status, the codes it carries, what it means, the headers it adds. */
export type ErrorAnswer = {
  status: string
  codes: ReadonlyArray<ErrorCode>
  description: string
  headers?: ReadonlyArray<HeaderName>
}

/** Every error answer of the API, by the name operations use for it. */
export const ERROR_ANSWERS = {
  BadRequest: {
    status: '400',
    codes: ['invalid_request', 'invalid_json'],
    description:
      'The request is invalid: the message names each field or parameter and the rule it broke.',
  },
  Unauthorized: {
    status: '401',
    codes: ['unauthorized', 'invalid_token'],
    description:
      'The API key is missing or unknown (`unauthorized`), or expired or revoked (`invalid_token`).',
    headers: ['WWW-Authenticate'],
  },
  Forbidden: {
    status: '403',
    codes: ['insufficient_scope'],
    description:
      'The API key is valid but lacks the scope the operation needs; `WWW-Authenticate` names it (RFC 6750).',
    headers: ['WWW-Authenticate'],
  },
  TooManyRequests: {
    status: '429',
    codes: ['rate_limited'],
    description:
      'Too many requests with this API key, or too many failed authentications from this address; wait `Retry-After` seconds.',
    headers: ['Retry-After'],
  },
  NotFound: {
    status: '404',
    codes: ['not_found'],
    description: 'The requested animal does not exist.',
  },
  IdempotencyKeyInUse: {
    status: '409',
    codes: ['idempotency_key_in_use'],
    description:
      'The first request with this Idempotency-Key is still being processed, or presumed to be: a request holds its key for a bounded time (its lease), so a key left by an instance that died frees itself. Retry after `Retry-After` seconds, which never points past that moment.',
    headers: ['Retry-After'],
  },
  IdempotencyKeyReused: {
    status: '422',
    codes: ['idempotency_key_reused'],
    description:
      'This Idempotency-Key was first used with another body; a new pet needs a new key.',
  },
  Gone: { status: '410', codes: ['gone'], description: 'The operation was removed at its sunset.' },
  PayloadTooLarge: {
    status: '413',
    codes: ['payload_too_large'],
    description: 'The body is larger than the limit.',
  },
  UnsupportedMediaType: {
    status: '415',
    codes: ['unsupported_media_type'],
    description: 'The body is not sent as application/json.',
  },
  Internal: {
    status: '500',
    codes: ['internal'],
    description: 'An unexpected failure; the details are only in the service log.',
  },
  NotImplemented: {
    status: '501',
    codes: ['not_implemented'],
    description: 'Part of the wider interface, not available here.',
  },
  InsufficientStorage: {
    status: '507',
    codes: ['insufficient_storage'],
    description:
      'The store can take no more pets: it is at its configured capacity (the in-memory store holds at most MAX_PETS), or every identifier up to 2^63-1 is used or passed (ids are never reused). Retrying cannot help.',
  },
  Unavailable: {
    status: '503',
    codes: ['unavailable'],
    description: 'The store cannot be reached; retry later.',
    headers: ['Retry-After'],
  },
} satisfies Record<string, ErrorAnswer>

/** The error answers an operation may list, each one documented response. */
export type ErrorAnswerName = keyof typeof ERROR_ANSWERS
