import type { DeprecationPolicy } from '../deprecation.js'
import type { ErrorCode } from '../problem.js'
import type { ErrorAnswerName } from '../routes/route.js'

const header = (description: string, schema: object = { type: 'string' }) => ({
  description,
  schema,
})

/** The `components.headers` of the document. */
export const headerDocs = ({ sunsetAt }: DeprecationPolicy) => ({
  'X-Request-Id': header(
    "The request id: the caller's X-Request-Id when it is 1 to 128 of [A-Za-z0-9._:-], otherwise a generated one.",
  ),
  'Cache-Control': header('Always `no-store`.', { type: 'string', const: 'no-store' }),
  'X-Content-Type-Options': header('Always `nosniff`.', { type: 'string', const: 'nosniff' }),
  Link: header(
    'RFC 8288. On listPets: `<...>; rel="next"` when more animals exist. On getPet: the replacement, `rel="successor-version"`.',
  ),
  'Idempotent-Replayed': header(
    'Always `true`, on an answer replayed from an earlier request with the same Idempotency-Key; absent otherwise.',
    { type: 'string', const: 'true' },
  ),
  Location: header("The new animal's URL, `<base path>/pets/{id}`."),
  Deprecation: header('RFC 9745: `@<unix seconds>`, when getPet was deprecated.', {
    type: 'string',
    pattern: '^@[0-9]+$',
  }),
  Sunset: header(`RFC 8594: \`${sunsetAt.toUTCString()}\`, when getPet is removed.`),
  'WWW-Authenticate': header(
    'RFC 6750 challenge; `error="invalid_token"` when a key was presented.',
  ),
  'Retry-After': header('Seconds to wait before retrying.', { type: 'integer', minimum: 1 }),
  'RateLimit-Policy': header(
    'draft-ietf-httpapi-ratelimit-headers: the limit that applies, when rate limiting is on: `"default";q=<burst>;w=<seconds to refill>` per API key, or `"auth-failures";q=...;w=...` per client address on a failed authentication.',
  ),
  RateLimit: header(
    'draft-ietf-httpapi-ratelimit-headers: what is left, `"<policy>";r=<requests left>;t=<seconds until the budget is full>`. On every answer to an authenticated request, and on 401 and 429, when rate limiting is on.',
  ),
})

export type HeaderName = keyof ReturnType<typeof headerDocs>

const ref = (name: HeaderName) => ({ $ref: `#/components/headers/${name}` })
const common = {
  'X-Request-Id': ref('X-Request-Id'),
  'Cache-Control': ref('Cache-Control'),
  'X-Content-Type-Options': ref('X-Content-Type-Options'),
  'RateLimit-Policy': ref('RateLimit-Policy'),
  RateLimit: ref('RateLimit'),
}

/** A response without a body (204), with the headers every answer carries plus `extra`. */
export const noContentResponse = (description: string, extra: ReadonlyArray<HeaderName> = []) => ({
  description,
  headers: { ...common, ...Object.fromEntries(extra.map((h) => [h, ref(h)])) },
})

/** A response whose body is `schema`, with the headers every answer carries plus `extra`. */
export const jsonResponse = (
  description: string,
  schema: string,
  extra: ReadonlyArray<HeaderName> = [],
) => ({
  ...noContentResponse(description, extra),
  content: { 'application/json': { schema: { $ref: `#/components/schemas/${schema}` } } },
})

type ErrorAnswer = {
  status: string
  codes: ReadonlyArray<ErrorCode>
  description: string
  headers?: ReadonlyArray<HeaderName>
}

/** Every error answer of the API, by the name operations use for it. */
const errorAnswers = {
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
} satisfies Record<ErrorAnswerName, ErrorAnswer>

/** The error answers of one operation, keyed by status; `extra` headers go on each of them. */
export const errorResponses = (
  names: ReadonlyArray<ErrorAnswerName>,
  extra: ReadonlyArray<HeaderName> = [],
) =>
  Object.fromEntries(
    names.map((name) => {
      const answer: ErrorAnswer = errorAnswers[name]
      const codes = answer.codes.map((c) => `\`${c}\``).join(', ')
      return [
        answer.status,
        jsonResponse(`${answer.description} Codes: ${codes}.`, 'Error', [
          ...(answer.headers ?? []),
          ...extra,
        ]),
      ]
    }),
  )
