// What a performance-minded user would pick: Fastify 5 with JSON Schema validation and
// serialization, no logger. Adapted from ../shared/perf/fastify-peer.cjs (plus GET by id).
import Fastify from 'fastify'
import { makePets, STATUSES, API_KEY, LIMIT_DEFAULT, LIMIT_MAX } from './store.mjs'

const fastify = Fastify({
  logger: false,
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
  if (req.headers.authorization !== AUTH) return reply.code(401).send({ error: 'unauthorized' })
  done()
})

fastify.get(
  '/v1/pets',
  {
    schema: {
      // Query strings are strings: limit is read by hand (coercion is off).
      querystring: {
        type: 'object',
        properties: {
          limit: { type: 'string', pattern: '^[0-9]{1,3}$' },
          status: { type: 'string', enum: STATUSES },
        },
      },
      response: { 200: { type: 'array', items: pet } },
    },
  },
  (req, reply) => {
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
  },
)

fastify.get(
  '/v1/pets/:id',
  {
    schema: {
      params: { type: 'object', properties: { id: { type: 'string', pattern: '^[0-9]{1,19}$' } } },
      response: { 200: pet },
    },
  },
  (req, reply) => {
    const found = pets[Number(req.params.id) - 1]
    if (found === undefined) return reply.code(404).send({ error: 'not found' })
    reply.send(found)
  },
)

fastify.post(
  '/v1/pets',
  {
    schema: {
      body: {
        type: 'object',
        required: ['name', 'categoryId', 'status'],
        properties: {
          name: { type: 'string', minLength: 1 },
          categoryId: { type: 'integer' },
          status: { type: 'string', enum: STATUSES },
        },
      },
      response: { 201: pet },
    },
  },
  (req, reply) => {
    const b = req.body
    const p = { id: pets.length + 1, name: b.name, categoryId: b.categoryId, status: b.status }
    pets.push(p)
    reply.code(201).send(p)
  },
)

fastify.listen({ port: Number(process.env.PORT || 3003), host: '127.0.0.1' })
