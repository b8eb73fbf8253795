// The Koa floor: Koa 3 + @koa/router doing the fixed work of a real service (bearer key by SHA-256
// digest in constant time, a request id, three headers, hand validation, JSON) and one pino info
// line per request (LOG_LEVEL=warn turns it off). Adapted from ../shared/perf/koa-floor.mjs.
import Koa from 'koa'
import Router from '@koa/router'
import { timingSafeEqual, randomUUID, hash } from 'node:crypto'
import { parse } from 'node:querystring'
import { pino } from 'pino'
import { makePets, STATUSES, API_KEY, LIMIT_DEFAULT, LIMIT_MAX } from './store.mjs'

const logger = pino(
  { level: process.env.LOG_LEVEL || 'info' },
  pino.destination({ dest: 1, sync: false, minLength: 4096 }),
)
const pets = makePets()
const keyDigest = hash('sha256', API_KEY, 'buffer')
const app = new Koa()
app.use(async (ctx, next) => {
  const t = performance.now()
  const rid = randomUUID()
  ctx.res.setHeader('X-Request-Id', rid)
  ctx.res.setHeader('Cache-Control', 'no-store')
  ctx.res.setHeader('X-Content-Type-Options', 'nosniff')
  const a = ctx.req.headers.authorization
  const m = a && /^bearer +([A-Za-z0-9\-._~+/]{1,512}=*) *$/i.exec(a)
  if (!m || !timingSafeEqual(hash('sha256', m[1], 'buffer'), keyDigest)) {
    ctx.status = 401
    ctx.type = 'application/json'
    ctx.body = '{"code":"unauthorized"}'
  } else await next()
  logger.info(
    {
      requestId: rid,
      method: ctx.method,
      route: ctx._matchedRoute,
      status: ctx.status,
      ms: performance.now() - t,
    },
    'request',
  )
})
const router = new Router({ prefix: '/v1' })
router.get('/pets', (ctx) => {
  const q = parse(ctx.querystring)
  let limit = LIMIT_DEFAULT
  if (q.limit !== undefined) {
    if (
      typeof q.limit !== 'string' ||
      !/^\d{1,3}$/.test(q.limit) ||
      +q.limit < 1 ||
      +q.limit > LIMIT_MAX
    ) {
      ctx.status = 400
      return
    }
    limit = +q.limit
  }
  const status = q.status
  if (status !== undefined && !STATUSES.includes(status)) {
    ctx.status = 400
    return
  }
  const out = []
  for (let i = 0; i < pets.length && out.length < limit; i++)
    if (status === undefined || pets[i].status === status) out.push(pets[i])
  ctx.type = 'application/json'
  ctx.body = JSON.stringify(out)
})
router.get('/pets/:id', (ctx) => {
  const pet = /^\d{1,19}$/.test(ctx.params.id) ? pets[Number(ctx.params.id) - 1] : undefined
  if (pet === undefined) {
    ctx.status = 404
    return
  }
  ctx.type = 'application/json'
  ctx.body = JSON.stringify(pet)
})
router.post('/pets', async (ctx) => {
  const chunks = []
  for await (const c of ctx.req) chunks.push(c)
  const b = JSON.parse(Buffer.concat(chunks).toString())
  if (typeof b.name !== 'string' || !Number.isInteger(b.categoryId)) {
    ctx.status = 400
    return
  }
  const pet = { id: pets.length + 1, name: b.name, categoryId: b.categoryId, status: b.status }
  pets.push(pet)
  ctx.status = 201
  ctx.set('Location', '/v1/pets/' + pet.id)
  ctx.type = 'application/json'
  ctx.body = JSON.stringify(pet)
})
app.use(router.routes())
app.listen(Number(process.env.PORT), '127.0.0.1')
