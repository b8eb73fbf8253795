/**
 * The peer: the same three routes the way a Fastify 5 service would write them, with JSON
 * Schema validation (Ajv) and schema-compiled serialization. Errors keep our codes and statuses
 * (Ajv words its messages its own way and, by default, reports the first problem only).
 */
import Fastify, { type FastifyError, type FastifyReply, type FastifyRequest } from 'fastify'
import { deprecationHeaders, GET_PET_SUNSET } from '../../adapters/koa/deprecation.js'
import { readJsonBody } from '../../adapters/koa/json-body.js'
import {
  ERROR_CODES,
  errorBody,
  toErrorResponse,
  type Problem,
} from '../../adapters/koa/problem.js'
import { requestIdOf } from '../../adapters/koa/request-id.js'
import { MAX_BODY_BYTES } from '../../apps/server/compose.js'
import {
  authenticate,
  INT64_MAX,
  LIMIT_DEFAULT,
  PET_NAME_MAX_LENGTH,
  PET_NAME_PATTERN,
  PET_STATUSES,
  type NewPet,
  type PetId,
  type PetStatus,
} from '../../core/index.js'
import { announce, nextLink, openPeer, OTHER_METHODS, stopOnSignals } from './common.js'

const peer = await openPeer()
const { basePath, retryAfterSeconds } = peer.config
const { store } = peer
const deprecated = deprecationHeaders(
  { deprecatedAt: peer.config.getPetDeprecatedAt, sunsetAt: GET_PET_SUNSET },
  basePath,
)
const authenticateHeader = authenticate(peer.apiKeys)
const getPetPath = new RegExp(`^${basePath}/pets/[^/]+$`)

/*
 * Ajv knows no bigint, so identifiers get a keyword: 'number' takes the bigints our body parser
 * makes of integer literals (never a string, never a LosslessNumber), 'param' takes digits.
 */
const inRange = (n: bigint) => n >= 1n && n <= INT64_MAX
const int64Keyword = {
  keyword: 'x-int64',
  schemaType: 'string' as const,
  validate: (kind: string, data: unknown) =>
    kind === 'number'
      ? typeof data === 'bigint' && inRange(data)
      : typeof data === 'string' && /^[0-9]{1,40}$/.test(data) && inRange(BigInt(data)),
}

const status = { type: 'string', enum: PET_STATUSES }
const pet = {
  type: 'object',
  required: ['id', 'name', 'categoryId'],
  properties: {
    id: { type: 'integer' },
    name: { type: 'string' },
    categoryId: { type: 'integer' },
    status: { type: 'string' },
  },
}
const newPet = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'categoryId'],
  properties: {
    // The lookahead refuses lone surrogates, which the core's PetName refuses too.
    name: {
      type: 'string',
      minLength: 1,
      maxLength: PET_NAME_MAX_LENGTH,
      pattern: `^(?![^]*[\\uD800-\\uDFFF])${PET_NAME_PATTERN.slice(1)}`,
    },
    categoryId: { 'x-int64': 'number' },
    status,
  },
}
const listQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    limit: { type: 'string', pattern: '^(?=[0-9]{1,3}$)0*([1-9][0-9]?|100)$' },
    status,
    after: { type: 'string', 'x-int64': 'param' },
  },
}
const petParams = {
  type: 'object',
  properties: { petId: { type: 'string', 'x-int64': 'param' } },
}

const app = Fastify({
  logger: false,
  keepAliveTimeout: 65_000,
  requestTimeout: 30_000,
  genReqId: (req) => requestIdOf(req.headers['x-request-id']),
  // Fastify's defaults drop unknown fields and coerce types; the contract refuses both.
  ajv: {
    customOptions: {
      removeAdditional: false,
      coerceTypes: false,
      useDefaults: false,
      keywords: [int64Keyword],
    },
  },
})

const sendProblem = (reply: FastifyReply, problem: Problem, message?: string) => {
  const response = toErrorResponse(problem, retryAfterSeconds)
  if (response.headers !== undefined) reply.headers(response.headers)
  return reply
    .code(ERROR_CODES[response.code])
    .type('application/json')
    .send(errorBody(response.code, message ?? response.message))
}

/** Our body reader as the JSON parser: lossless numbers, the same 413, 415 and 400 answers. */
class BodyError extends Error {
  constructor(readonly problem: Problem) {
    super(problem._tag)
  }
}
app.removeContentTypeParser('application/json')
app.addContentTypeParser('application/json', async (request: FastifyRequest) => {
  const body = await readJsonBody(request.raw, MAX_BODY_BYTES)
  if (body._tag === 'Left') throw new BodyError(body.left)
  return body.right
})

app.setErrorHandler((error: FastifyError, _request, reply) => {
  if (error instanceof BodyError) return sendProblem(reply, error.problem)
  if (error.validation !== undefined)
    return sendProblem(reply, { _tag: 'InvalidInput', problems: [] }, error.message)
  if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE')
    return sendProblem(reply, {
      _tag: 'UnsupportedMediaType',
      detail: 'the body must be sent as Content-Type: application/json (charset utf-8)',
    })
  console.error(error)
  return sendProblem(reply, { _tag: 'Internal' })
})
app.setNotFoundHandler((_request, reply) => sendProblem(reply, { _tag: 'RouteNotFound' }))

// The service's order: framing headers, 404 outside the base path, deprecation, then auth.
app.addHook('onRequest', (request, reply, done) => {
  reply.headers({
    'X-Request-Id': request.id,
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
  })
  const path = request.url.split('?', 1)[0] as string
  if (path !== basePath && !path.startsWith(`${basePath}/`)) return done()
  if ((request.method === 'GET' || request.method === 'HEAD') && getPetPath.test(path))
    reply.headers(deprecated)
  void authenticateHeader(request.headers.authorization)().then((principal) => {
    if (principal._tag === 'Left') sendProblem(reply, principal.left)
    else done()
  })
})

const notAllowed = (url: string, allow: ReadonlyArray<string>, methods: ReadonlyArray<string>) =>
  app.route({
    method: [...methods],
    url,
    handler: (_request, reply) => sendProblem(reply, { _tag: 'MethodNotAllowed', allow }),
  })

type ListQuery = { limit?: string; status?: PetStatus; after?: string }
app.get<{ Querystring: ListQuery }>(
  `${basePath}/pets`,
  { schema: { querystring: listQuery, response: { 200: { type: 'array', items: pet } } } },
  async (request, reply) => {
    const { status, after } = request.query
    const limit = request.query.limit === undefined ? LIMIT_DEFAULT : Number(request.query.limit)
    const query = {
      limit,
      ...(status === undefined ? {} : { status }),
      ...(after === undefined ? {} : { after: BigInt(after) as PetId }),
    }
    const found = await store.listPetPage({ ...query, limit: limit + 1 })()
    if (found._tag === 'Left') return sendProblem(reply, found.left)
    const pets = found.right.slice(0, limit)
    const last = pets.at(-1)
    if (found.right.length > limit && last !== undefined)
      reply.header('Link', nextLink(basePath, { ...query, after: last.id }))
    return reply.send(pets)
  },
)

app.post<{ Body: NewPet }>(
  `${basePath}/pets`,
  {
    schema: { body: newPet, response: { 201: pet } },
    // A body-less POST is never parsed, so its missing media type is refused here.
    preValidation: (request, reply, done) => {
      const type = request.headers['content-type']
      if (type !== undefined && /^application\/json\b/i.test(type)) return done()
      void sendProblem(reply, {
        _tag: 'UnsupportedMediaType',
        detail: 'the body must be sent as Content-Type: application/json (charset utf-8)',
      })
    },
  },
  async (request, reply) => {
    const stored = await store.insertPet(request.body)()
    if (stored._tag === 'Left') return sendProblem(reply, stored.left)
    return reply
      .code(201)
      .header('Location', `${basePath}/pets/${stored.right.id}`)
      .send(stored.right)
  },
)
notAllowed(`${basePath}/pets`, ['GET', 'HEAD', 'POST'], OTHER_METHODS)

app.get<{ Params: { petId: string } }>(
  `${basePath}/pets/:petId`,
  {
    schema: { params: petParams, response: { 200: pet } },
    // The router matches an empty segment (`/pets/`), which the service's router does not.
    preValidation: (request, reply, done) => {
      if (request.params.petId !== '') return done()
      void sendProblem(reply, { _tag: 'RouteNotFound' })
    },
  },
  async (request, reply) => {
    if (Date.now() >= GET_PET_SUNSET.getTime())
      return sendProblem(reply, {
        _tag: 'Gone',
        detail: `this operation was removed; use GET ${basePath}/pets?status=...`,
      })
    const id = BigInt(request.params.petId) as PetId
    const found = await store.findPet(id)()
    if (found._tag === 'Left') return sendProblem(reply, found.left)
    if (found.right._tag === 'None') return sendProblem(reply, { _tag: 'PetNotFound', id })
    return reply.send(found.right.value)
  },
)
notAllowed(`${basePath}/pets/:petId`, ['GET', 'HEAD'], [...OTHER_METHODS, 'POST'])

app.get(`${basePath}/store/orders`, (_request, reply) =>
  sendProblem(reply, { _tag: 'NotImplemented' }),
)
notAllowed(`${basePath}/store/orders`, ['GET', 'HEAD'], [...OTHER_METHODS, 'POST'])

const address = await app.listen({ port: peer.config.port, host: peer.config.host ?? '127.0.0.1' })
announce(Number(new URL(address).port))
stopOnSignals(async () => {
  await app.close()
  await peer.close()
})
