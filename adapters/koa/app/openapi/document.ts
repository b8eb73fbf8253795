import { stringify } from 'lossless-json'
import { ALL_SCOPES } from '../../../../core/index.js'
import { apiSettingsOf, type ApiSettingOptions, type ApiSettings } from '../api-settings.js'
import { EXPOSED_HEADERS } from '../../response/header-names.js'
import { ERROR_CODES } from '../../response/problem.js'
import { ROUTES, routesOf, type Route, type RouteTable } from '../routes/index.js'
import { INT64_STRING_TYPE } from '../../request/int64-form.js'
import { openApiPaths, tagOf } from './paths.js'
import { headerDocs } from './responses.js'
import { parameterDocs, schemas } from './schemas.js'

/** One entry of the document's `servers`: where the API is reached, and what that place is. */
export type OpenApiServer = { readonly url: string; readonly description: string }

/**
 * The document's servers: first the base where this service answers, as its client reaches it
 * (a generated client's default, and "Try it out"'s), then the places an operator names.
 */
export const serversOf = (
  base: string,
  named: ReadonlyArray<OpenApiServer> = [],
): ReadonlyArray<OpenApiServer> => [{ url: base, description: 'This service' }, ...named]

/**
 * What the document is written from: the settings the code runs with (the interface's where left
 * out, as the app's), and its route table.
 */
export type OpenApiOptions = ApiSettingOptions & {
  readonly servers: ReadonlyArray<OpenApiServer>
  /** The API's route table: ROUTES unless given. */
  readonly routes?: RouteTable | undefined
}

const errorCodeTable = Object.entries(ERROR_CODES)
  .map(([code, status]) => `| \`${code}\` | ${status} |`)
  .join('\n')

/** Not operations of the API, so not paths here; what a browser client needs to know. */
const browserNotes = [
  '**Browsers (CORS).** Off unless the operator lists origins (`CORS_ORIGINS`). For a listed origin, a preflight (`OPTIONS` with `Origin` and `Access-Control-Request-Method`) is answered 204 before authentication, with exactly the methods and request headers of that path; every other answer carries `Access-Control-Allow-Origin`, `Vary: Origin` and `Access-Control-Expose-Headers: ' +
    `${EXPOSED_HEADERS}\`. A preflight from another origin gets no CORS headers: it is an ordinary \`OPTIONS\` (401 without a key, else 405 with \`Allow\`).`,
  '**Reference page.** `GET <base path>/docs` renders this document (Swagger UI, served by the service itself, no key needed to read it; "Try it out" needs a key). An embedding of the library without swagger-ui-dist installed serves no such page.',
]

/** What a client must know to keep identifiers exact; the same note is on every int64 field. */
const int64Notes = [
  "**Identifiers above 2^53.** Identifiers (`id`, `categoryId`, `petId`, `after`) are integers from 1 to 2^63-1, plain JSON numbers by default. A JSON parser that reads numbers as doubles (JavaScript's `JSON.parse`, most generated clients) silently rounds those above 2^53 (9007199254740992), in what it reads and in what it sends: use one that keeps integers exact (the typed client `animal-store/client`, lossless-json), or the string form.",
  `**The string form** (as the proto3 JSON mapping writes int64): with \`Accept: ${INT64_STRING_TYPE}\` every int64 field of the answer is a JSON string of its digits (\`"id":"9007199254740993"\`), sent with that \`Content-Type\`; a body sent with \`Content-Type: ${INT64_STRING_TYPE}\` has its int64 fields as such strings (a number there is 400). Each direction is chosen apart, per request. The operations list both media types; the string form's schemas end in \`Int64String\`. An Error body, which has no int64 field, is the same text in both forms. In a path or query an identifier is its digits in either form.`,
]

/** Which operations each scope allows, from the route table: `pets:read` (listPets, ...). */
const scopeText = (routes: ReadonlyArray<Route>) => {
  const held = ALL_SCOPES.flatMap((scope) => {
    const ids = routes.filter((r) => r.scope === scope).map((r) => r.operationId)
    return ids.length === 0 ? [] : [`\`${scope}\` (${ids.join(', ')})`]
  })
  return held.length < 2 ? held.join('') : `${held.slice(0, -1).join(', ')} and ${held.at(-1)}`
}

/**
 * The version of the HTTP API, the contract the document describes (its `info.version`), apart
 * from the package's: a change a client must adapt to raises its major, which the default base
 * path (`/v1`) names; a compatible addition its minor. The code's releases do not move it.
 */
export const API_VERSION = '1.0.0'

const info = (routes: ReadonlyArray<Route>) => ({
  title: 'Animal Store',
  version: API_VERSION,
  license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
  description: [
    'A catalogue of animals for sale. Every operation needs `Authorization: Bearer <API key>`;',
    'authentication is checked before anything else, so an anonymous caller gets 401 on every path under the base path.',
    `A key holds scopes: ${scopeText(routes)}; a key without the scope an operation needs gets 403 \`insufficient_scope\`. An expired or revoked key gets 401 \`invalid_token\`.`,
    'Requests are rate limited per API key (a token bucket), and failed authentications per client address; past the limit the answer is 429 `rate_limited` with `Retry-After`. `RateLimit-Policy` and `RateLimit` (draft-ietf-httpapi-ratelimit-headers) tell a client where it stands.',
    'A known path called with a method it does not accept answers 405 `method_not_allowed` with `Allow`; an unknown path answers 404 `not_found`.',
    "Some answers concern the HTTP exchange, not an operation, so no operation lists them: a malformed request (a method outside Node's `http.METHODS`, such as `BREW`, included), or one without exactly one `Host` or with two `Authorization` or `Content-Type` headers, is 400 `bad_request`; a request that does not arrive in time 408 `request_timeout`; an `Expect` other than `100-continue` 417 `expectation_failed`; headers over 16 KiB 431 `headers_too_large`; `CONNECT` or a transfer coding other than `chunked` 501 `not_implemented`; too many connections 503 `unavailable`.",
    'Every error has the Error body. Its `code` is one of:\n\n| code | status |\n|---|---|\n' +
      errorCodeTable,
    ...int64Notes,
    ...browserNotes,
  ].join('\n\n'),
})

const paths = (settings: ApiSettings, routes: ReadonlyArray<Route>) => ({
  ...openApiPaths(settings, routes),
  '/openapi.json': {
    get: {
      operationId: 'getOpenApiDocument',
      tags: [DOCUMENT_TAG],
      summary: 'This document',
      security: [],
      responses: {
        '200': {
          description: 'The OpenAPI document.',
          content: { 'application/json': { schema: { type: 'object' } } },
        },
      },
    },
  },
})

const DOCUMENT_TAG = 'openapi'
const TAG_DESCRIPTIONS: Readonly<Record<string, string>> = {
  pets: 'The catalogue of animals.',
  store: 'The store: part of the wider interface, not available here.',
  [DOCUMENT_TAG]: 'This document.',
}

/** One tag per first path segment, so that a generator groups operations (a `PetsApi` class). */
const tagsOf = (routes: ReadonlyArray<Route>) =>
  [...new Set([...routes.map((route) => tagOf(route.path)), DOCUMENT_TAG])].map((name) => ({
    name,
    description: TAG_DESCRIPTIONS[name] ?? `The operations under /${name}.`,
  }))

const documentOf = ({ servers, routes = ROUTES, ...settings }: OpenApiOptions & ApiSettings) => ({
  openapi: '3.1.0',
  info: info(routesOf(routes)),
  servers: servers.map((server) => ({ ...server })),
  security: [{ bearerAuth: [] }],
  tags: tagsOf(routesOf(routes)),
  paths: paths(settings, routesOf(routes)),
  components: {
    securitySchemes: {
      bearerAuth: { type: 'http', scheme: 'bearer', description: 'An API key as a bearer token.' },
    },
    schemas,
    parameters: parameterDocs(settings.listLimits),
    headers: headerDocs(settings.deprecation),
  },
})

/** The OpenAPI 3.1 document, built from the same settings and routes the code runs with. */
export const openApiDocument = (options: OpenApiOptions) =>
  documentOf({ ...options, ...apiSettingsOf(options) })

/** As JSON text: lossless-json writes the bigint bounds digit for digit. */
export const openApiJson = (options: OpenApiOptions): string =>
  stringify(openApiDocument(options)) as string
