import { stringify } from 'lossless-json'
import { LIMIT_DEFAULT, type Scope } from '../../../core/index.js'
import { EXPOSED_HEADERS } from '../middleware/cors.js'
import { ERROR_CODES } from '../problem.js'
import { errorResponses, headers, jsonResponse, type ErrorAnswerName } from './responses.js'
import { parameters, schemas } from './schemas.js'

export type OpenApiOptions = {
  readonly productionUrl: string
  readonly stagingUrl: string
  readonly maxBodyBytes: number
}

const param = (name: keyof typeof parameters) => ({ $ref: `#/components/parameters/${name}` })
const needs = (scope: Scope) => [{ bearerAuth: [scope] }]
const deprecationHeaders = ['Deprecation', 'Sunset', 'Link'] as const
const errorCodeTable = Object.entries(ERROR_CODES)
  .map(([code, status]) => `| \`${code}\` | ${status} |`)
  .join('\n')

/** Not operations of the API, so not paths here; what a browser client needs to know. */
const browserNotes = [
  '**Browsers (CORS).** Off unless the operator lists origins (`CORS_ORIGINS`). For a listed origin, a preflight (`OPTIONS` with `Origin` and `Access-Control-Request-Method`) is answered 204 before authentication, with exactly the methods and request headers of that path; every other answer carries `Access-Control-Allow-Origin`, `Vary: Origin` and `Access-Control-Expose-Headers: ' +
    `${EXPOSED_HEADERS}\`. A preflight from another origin gets no CORS headers: it is an ordinary \`OPTIONS\` (401 without a key, else 405 with \`Allow\`).`,
  '**Reference page.** `GET <base path>/docs` renders this document (Swagger UI, served by the service itself, no key needed to read it; "Try it out" needs a key).',
]

/** Every authenticated operation can answer 401, 403 and 429 as well as its own errors. */
const AUTHED = (names: ReadonlyArray<ErrorAnswerName>): ReadonlyArray<ErrorAnswerName> => [
  'Unauthorized',
  'Forbidden',
  'TooManyRequests',
  ...names,
]

const info = {
  title: 'Animal Store',
  version: '1.0.0',
  license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
  description: [
    'A catalogue of animals for sale. Every operation needs `Authorization: Bearer <API key>`;',
    'authentication is checked before anything else, so an anonymous caller gets 401 on every path under the base path.',
    'A key holds scopes: `pets:read` (listPets, getPet, listStoreOrders) and `pets:write` (createPet); a key without the scope an operation needs gets 403 `insufficient_scope`. An expired or revoked key gets 401 `invalid_token`.',
    'Requests are rate limited per API key (a token bucket), and failed authentications per client address; past the limit the answer is 429 `rate_limited` with `Retry-After`. `RateLimit-Policy` and `RateLimit` (draft-ietf-httpapi-ratelimit-headers) tell a client where it stands.',
    'A known path called with a method it does not accept answers 405 `method_not_allowed` with `Allow`; an unknown path answers 404 `not_found`.',
    'Every error has the Error body. Its `code` is one of:\n\n| code | status |\n|---|---|\n' +
      errorCodeTable,
    ...browserNotes,
  ].join('\n\n'),
}

const paths = (maxBodyBytes: number) => ({
  '/pets': {
    get: {
      operationId: 'listPets',
      summary: 'List animals',
      description: `Animals in ascending id order, at most \`limit\` (default ${LIMIT_DEFAULT}). When more exist, \`Link: <...>; rel="next"\` gives the next page; the body stays a plain array. Unknown, empty or repeated parameters are refused with 400.`,
      security: needs('pets:read'),
      parameters: [param('limit'), param('status'), param('after')],
      responses: {
        '200': jsonResponse('A page of animals.', 'Pets', ['Link']),
        ...errorResponses(AUTHED(['BadRequest', 'Internal', 'Unavailable'])),
      },
    },
    post: {
      operationId: 'createPet',
      summary: 'Add an animal',
      description: `The body is a NewPet sent as \`application/json\`, at most ${maxBodyBytes} bytes. Unknown fields, \`id\` among them, are refused. Any \`Content-Encoding\` other than \`identity\` is 415.`,
      security: needs('pets:write'),
      requestBody: {
        required: true,
        content: { 'application/json': { schema: { $ref: '#/components/schemas/NewPet' } } },
      },
      responses: {
        '201': {
          ...jsonResponse('The animal as stored, with its new id.', 'Pet', ['Location']),
          // The URL in Location is the getPet of the new id: a client (or a fuzzer) can follow it.
          links: {
            GetCreatedPet: {
              operationId: 'getPet',
              parameters: { petId: '$response.body#/id' },
              description: 'The animal just created; the same URL as the Location header.',
            },
          },
        },
        ...errorResponses(
          AUTHED([
            'BadRequest',
            'PayloadTooLarge',
            'UnsupportedMediaType',
            'Internal',
            'Unavailable',
            'InsufficientStorage',
          ]),
        ),
      },
    },
  },
  '/pets/{petId}': {
    get: {
      operationId: 'getPet',
      summary: 'Get one animal (deprecated)',
      description:
        'Deprecated; removed on 2030-12-05, from when it answers 410. Use `GET /pets` with the `status` filter. Every answer carries `Deprecation`, `Sunset` and a `Link` to the replacement.',
      deprecated: true,
      security: needs('pets:read'),
      parameters: [param('petId')],
      responses: {
        '200': jsonResponse('The animal.', 'Pet', deprecationHeaders),
        ...errorResponses(
          AUTHED(['BadRequest', 'NotFound', 'Gone', 'Internal', 'Unavailable']),
          deprecationHeaders,
        ),
      },
    },
  },
  '/store/orders': {
    get: {
      operationId: 'listStoreOrders',
      summary: 'Store orders (not available)',
      description:
        'Part of the wider interface; its fields are not specified, so it answers 501 after authentication.',
      security: needs('pets:read'),
      responses: errorResponses(AUTHED(['NotImplemented'])),
    },
  },
  '/openapi.json': {
    get: {
      operationId: 'getOpenApiDocument',
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

/** The OpenAPI 3.1 document, built from the same constants the code validates with. */
export const openApiDocument = (options: OpenApiOptions) => ({
  openapi: '3.1.0',
  info,
  servers: [
    { url: options.productionUrl, description: 'Production' },
    { url: options.stagingUrl, description: 'Staging' },
  ],
  security: [{ bearerAuth: [] }],
  paths: paths(options.maxBodyBytes),
  components: {
    securitySchemes: {
      bearerAuth: { type: 'http', scheme: 'bearer', description: 'An API key as a bearer token.' },
    },
    schemas,
    parameters,
    headers,
  },
})

/** As JSON text: lossless-json writes the bigint bounds digit for digit. */
export const openApiJson = (options: OpenApiOptions): string =>
  stringify(openApiDocument(options)) as string
