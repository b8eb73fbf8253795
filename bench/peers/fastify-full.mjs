// Fastify 5 doing what the service does on every request: JSON Schema validation and
// serialization, the bearer key, a request id echoed in X-Request-Id, a per-key rate limit with
// its RateLimit headers (@fastify/rate-limit), Location on create, and one pino line per request
// on stdout. What a user would build instead with Fastify's plugins. Adapted from
// ../shared/perf/fastify-full-peer.cjs (plus GET by id).
import { randomUUID } from 'node:crypto'
import Fastify, { LogController } from 'fastify'
import rateLimit from '@fastify/rate-limit'
import { makePets, STATUSES, API_KEY, LIMIT_DEFAULT, LIMIT_MAX, NAME_MAX_LENGTH } from './store.mjs'

const fastify = Fastify({
  logger: { level: process.env.LOG_LEVEL || 'info' },
  // Fastify's own two lines per request are off: the onResponse hook writes the one line.
  logController: new LogController({ disableRequestLogging: true }),
  genReqId: (req) => req.headers['x-request-id'] || randomUUID(),
  ajv: { customOptions: { coerceTypes: false, removeAdditional: false } },
})
const pets = makePets()
const AUTH = 'Bearer ' + API_KEY

const pet = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    name: { type: 'string' },
    categoryId: { type: 'integer' },
    status: { type: 'string' },
  },
}

fastify.addHook('onRequest', (req, reply, done) => {
  reply.header('x-request-id', req.id)
  if (req.headers.authorization !== AUTH) return reply.code(401).send({ error: 'unauthorized' })
  done()
})
fastify.addHook('onResponse', (req, reply, done) => {
  const { method, url } = req
  req.log.info({ method, url, status: reply.statusCode, ms: reply.elapsedTime }, 'request')
  done()
})

await fastify.register(rateLimit, {
  max: 1e9,
  timeWindow: 60000,
  keyGenerator: (req) => req.headers.authorization || req.ip,
})

const listing = {
  querystring: {
    type: 'object',
    properties: {
      limit: { type: 'string', pattern: '^[0-9]{1,3}$' },
      status: { type: 'string', enum: STATUSES },
    },
  },
  response: { 200: { type: 'array', items: pet } },
}
fastify.get('/v1/pets', { schema: listing }, (req, reply) => {
  const q = req.query
  let limit = LIMIT_DEFAULT
  if (q.limit !== undefined) {
    limit = Number(q.limit)
    if (limit < 1 || limit > LIMIT_MAX) return reply.code(400).send({ error: 'invalid limit' })
  }
  const out = []
  for (let i = 0; i < pets.length && out.length < limit; i++)
    if (q.status === undefined || pets[i].status === q.status) out.push(pets[i])
  reply.send(out)
})

const byId = {
  params: { type: 'object', properties: { id: { type: 'string', pattern: '^[0-9]{1,19}$' } } },
  response: { 200: pet },
}
fastify.get('/v1/pets/:id', { schema: byId }, (req, reply) => {
  const found = pets[Number(req.params.id) - 1]
  if (found === undefined) return reply.code(404).send({ error: 'not found' })
  reply.send(found)
})

const creation = {
  body: {
    type: 'object',
    required: ['name', 'categoryId', 'status'],
    properties: {
      name: { type: 'string', minLength: 1, maxLength: NAME_MAX_LENGTH },
      categoryId: { type: 'integer' },
      status: { type: 'string', enum: STATUSES },
    },
  },
  response: { 201: pet },
}
fastify.post('/v1/pets', { schema: creation }, (req, reply) => {
  const b = req.body
  const p = { id: pets.length + 1, name: b.name, categoryId: b.categoryId, status: b.status }
  pets.push(p)
  reply.code(201).header('location', `/v1/pets/${p.id}`).send(p)
})

fastify.listen({ port: Number(process.env.PORT || 3004), host: '127.0.0.1' })
