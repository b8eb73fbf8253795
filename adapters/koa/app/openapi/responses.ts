import type { DeprecationPolicy } from '../deprecation.js'
import { ERROR_CODES, errorCodesOf, type ErrorCode } from '../../../../core/index.js'
import { codesAnsweredBy, ERROR_ANSWERS, errorAnswerOf } from '../../response/error-answers.js'
import type { Route } from '../routes/route.js'
import type { HeaderName } from '../../response/header-names.js'
import { jsonResponse } from '../routes/operation-text.js'

const header = (description: string, schema: object = { type: 'string' }) => ({
  description,
  schema,
})

/** The `components.headers` of the document: one for each name of HeaderName, and no other. */
export const headerDocs = ({ sunsetAt }: DeprecationPolicy) =>
  ({
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
  }) satisfies Record<HeaderName, object>

/** The error answers of these codes, one per status; `extra` headers go on each of them. */
export const errorResponses = (
  codes: ReadonlyArray<ErrorCode>,
  extra: ReadonlyArray<HeaderName> = [],
) => {
  const statuses = [...new Set(codes.map((code) => ERROR_CODES[code]))]
  return Object.fromEntries(
    statuses.map((status) => {
      const answer = errorAnswerOf(status)
      const named = codes.filter((code) => ERROR_CODES[code] === status)
      return [
        String(status),
        jsonResponse(
          `${answer.description} Codes: ${named.map((c) => `\`${c}\``).join(', ')}.`,
          'Error',
          [...(answer.headers ?? []), ...extra],
        ),
      ]
    }),
  )
}

/**
 * The codes a route can answer: its operation's, from the catalogue; for an operation the
 * catalogue does not know (an embedding's own), those of every operation and of the answers the
 * route names.
 */
export const routeErrorCodes = (route: Route): ReadonlyArray<ErrorCode> => {
  const named = (route.errors ?? []).flatMap((name) => codesAnsweredBy(ERROR_ANSWERS[name].status))
  return [...new Set([...errorCodesOf(route.operationId), ...named])]
}
