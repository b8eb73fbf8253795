/**
 * A Koa host that mounts the API under /shop, with the middleware a Koa user would put around
 * it: every answer of the API passes through them, as any Koa app's does. docs/embedding.md
 * points at this file, and test/apps/koa-host-example.test.ts runs it.
 */
import etag from '@koa/etag'
import Koa from 'koa'
import compress from 'koa-compress'
import conditional from 'koa-conditional-get'
import helmet from 'koa-helmet'
import mount from 'koa-mount'
import {
  createInMemoryApiKeys,
  createInMemoryIdempotencyStore,
  createInMemoryPetStore,
} from 'animal-store/in-memory'
import { createKoaApp } from 'animal-store/koa'

const key = process.env.API_KEY ?? 'an-example-key-0123456789'
// Only what differs from the interface's defaults: keyed creates kept, and the public servers.
const api = createKoaApp(
  {
    store: createInMemoryPetStore(),
    apiKeys: createInMemoryApiKeys([key]),
    idempotencyStore: createInMemoryIdempotencyStore(),
  },
  {
    openApiServers: [
      { url: 'https://shop.example/shop/v1', description: 'Production' },
      { url: 'https://staging.shop.example/shop/v1', description: 'Staging' },
    ],
  },
)

const host = new Koa()
host.use(async (ctx, next) => {
  await next()
  ctx.set('X-Served-By', 'host') // set after the API has answered: it is on every answer
})
host.use(helmet())
host.use(compress({ threshold: 0 }))
host.use(conditional())
host.use(etag())
host.use(mount('/shop', api))
host.use((ctx) => {
  ctx.body = 'the host itself'
})

const server = host.listen(Number(process.env.PORT ?? 3000), '127.0.0.1', () => {
  const address = server.address()
  const port = typeof address === 'object' && address !== null ? address.port : 0
  console.log(`curl -H 'Authorization: Bearer ${key}' http://127.0.0.1:${port}/shop/v1/pets`)
})
