import Router from '@koa/router'
import etag from '@koa/etag'
import { expect } from 'chai'
import Koa from 'koa'
import compress from 'koa-compress'
import conditional from 'koa-conditional-get'
import helmet from 'koa-helmet'
import mount from 'koa-mount'
import { createServer, request, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'
import { gunzipSync } from 'node:zlib'
import { composeApp } from '../../../apps/server/compose.js'
import { inMemoryStorage } from '../../../apps/server/storage.js'
import { silentLogger } from '../../../core/index.js'
import { TEST_KEY, testConfig } from '../../support/app.js'

/*
 * The exported app inside a Koa host with the usual middleware from the registry, against a plain
 * Koa + @koa/router app in the same host: every answer of the mounted API must be shaped by the
 * host exactly as the plain app's are.
 */

/** The host: an outer header set after `await next()`, helmet, gzip, ETags and 304s, a mount. */
const hostAround = (api: Koa): Koa => {
  const host = new Koa()
  host.use(async (ctx, next) => {
    await next()
    ctx.set('X-Outer', 'seen')
  })
  host.use(helmet())
  host.use(compress({ threshold: 0 }))
  host.use(conditional())
  host.use(etag())
  host.use(mount('/shop', api))
  return host
}

const error = (code: string, status: number) =>
  JSON.stringify({ code, message: `a ${code} answer`, status })

/** What a Koa user would write by hand: @koa/router, JSON set through ctx.body, errors caught. */
const plainApp = (): Koa => {
  const app = new Koa()
  const router = new Router({ prefix: '/v1' })
  const json = (ctx: Koa.Context, status: number, body: string) => {
    ctx.status = status
    ctx.type = 'application/json'
    ctx.body = body
  }
  app.use(async (ctx, next) => {
    try {
      await next()
    } catch {
      json(ctx, 500, error('internal', 500))
    }
  })
  app.use(async (ctx, next) => {
    if (ctx.get('Authorization') !== `Bearer ${TEST_KEY}`) {
      ctx.set('WWW-Authenticate', 'Bearer realm="animal-store"')
      return json(ctx, 401, error('unauthorized', 401))
    }
    await next()
  })
  router.get('/pets', (ctx) => {
    if (ctx.query.status === 'sold') throw new Error('the store broke')
    json(ctx, 200, '[{"id":1,"name":"Rex","categoryId":7,"status":"available"}]')
  })
  router.post('/pets', (ctx) => json(ctx, 201, '{"id":1}'))
  app.use(router.routes())
  app.use((ctx) => json(ctx, 404, error('not_found', 404)))
  return app
}

/** The service's app, whose store throws on a listing of sold pets (an unexpected exception: a 500). */
const exportedApp = (): Koa => {
  const config = testConfig({ RATE_LIMIT: 'off' })
  const storage = inMemoryStorage()
  const listPetPage: typeof storage.store.listPetPage = (page) =>
    page.status === 'sold'
      ? () => Promise.reject(new Error('the store broke'))
      : storage.store.listPetPage(page)
  const broken = { ...storage, store: { ...storage.store, listPetPage } }
  return composeApp(config, broken, config.apiKeys, silentLogger)
}

type Answer = { status: number; headers: IncomingHttpHeaders; body: string }

const fetchRaw = (port: number, method: string, path: string, headers: Record<string, string>) =>
  new Promise<Answer>((resolve, reject) => {
    const body = method === 'POST' ? '{"name":"Rex","categoryId":7,"status":"available"}' : ''
    const sent = { ...headers, ...(body === '' ? {} : { 'Content-Type': 'application/json' }) }
    const r = request({ host: '127.0.0.1', port, method, path, headers: sent }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => {
        const raw = Buffer.concat(chunks)
        const gzipped = res.headers['content-encoding'] === 'gzip'
        const text = (gzipped ? gunzipSync(raw) : raw).toString('utf8')
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text })
      })
    })
    r.on('error', reject)
    r.end(body)
  })

/** Serves the host around `api` while `use` runs. */
const throughHost = async <T>(api: Koa, use: (port: number) => Promise<T>): Promise<T> => {
  const server = createServer(hostAround(api).callback())
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  try {
    return await use((server.address() as AddressInfo).port)
  } finally {
    await new Promise((resolve) => server.close(resolve))
  }
}

const key = { Authorization: `Bearer ${TEST_KEY}` }
const gzip = { 'Accept-Encoding': 'gzip' }

/** The requests, each named by what it shows. */
const REQUESTS: ReadonlyArray<[string, string, string, Record<string, string>]> = [
  ['created', 'POST', '/shop/v1/pets', { ...key, ...gzip }],
  ['listing', 'GET', '/shop/v1/pets', { ...key, ...gzip }],
  ['listing, not gzipped when not asked', 'GET', '/shop/v1/pets', key],
  ['401', 'GET', '/shop/v1/pets', gzip],
  ['404', 'GET', '/shop/v1/nowhere', { ...key, ...gzip }],
  ['500', 'GET', '/shop/v1/pets?status=sold', { ...key, ...gzip }],
]

/** What the host made of an answer: everything its middleware decide. */
const shapeOf = (answer: Answer, helmetNames: ReadonlyArray<string>) => ({
  status: answer.status,
  encoding: answer.headers['content-encoding'] ?? 'identity',
  varyAcceptEncoding: /accept-encoding/i.test(String(answer.headers.vary)),
  etag: answer.headers.etag !== undefined,
  outer: answer.headers['x-outer'],
  helmet: helmetNames.filter((name) => answer.headers[name] !== undefined),
  json: (JSON.parse(answer.body) as { code?: string }).code ?? 'a success',
})

/** Each request through the host around `api`, then the listing again with its ETag. */
const runAll = (api: Koa, helmetNames: ReadonlyArray<string>) =>
  throughHost(api, async (port) => {
    const shapes: Record<string, unknown> = {}
    let listingTag = ''
    for (const [name, method, path, headers] of REQUESTS) {
      const answer = await fetchRaw(port, method, path, headers)
      if (name === 'listing') listingTag = String(answer.headers.etag)
      shapes[name] = shapeOf(answer, helmetNames)
    }
    const again = await fetchRaw(port, 'GET', '/shop/v1/pets', {
      ...key,
      'If-None-Match': listingTag,
    })
    shapes['listing revalidated'] = {
      status: again.status,
      body: again.body,
      outer: again.headers['x-outer'],
    }
    return shapes
  })

describe('the exported app mounted in a Koa host (koa-mount, helmet, compress, etag, conditional-get)', () => {
  let helmetNames: ReadonlyArray<string> = []
  let plain: Record<string, unknown> = {}
  let exported: Record<string, unknown> = {}

  before(async () => {
    // The headers helmet sets, read from an answer of the host's own.
    const bare = new Koa()
    bare.use(helmet())
    bare.use((ctx) => void (ctx.body = 'ok'))
    const server = createServer(bare.callback())
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const own = await fetchRaw((server.address() as AddressInfo).port, 'GET', '/', {})
    await new Promise((resolve) => server.close(resolve))
    helmetNames = Object.keys(own.headers).filter(
      (n) => !/^(date|connection|keep-alive|content-|x-content-type-options)/.test(n),
    )
    plain = await runAll(plainApp(), helmetNames)
    exported = await runAll(exportedApp(), helmetNames)
  })

  it('helmet has headers to look for', () => {
    expect(helmetNames).to.include.members(['x-frame-options', 'strict-transport-security'])
  })

  for (const [name] of REQUESTS)
    it(`shapes the ${name} answer as it shapes a plain Koa + @koa/router app's`, () => {
      expect(exported[name]).to.deep.equal(plain[name])
    })

  it('gzips when asked, tags the listing, and sets the outer header and helmet on every answer', () => {
    expect(exported.listing).to.deep.include({
      status: 200,
      encoding: 'gzip',
      etag: true,
      outer: 'seen',
    })
    expect(exported['listing, not gzipped when not asked']).to.deep.include({
      encoding: 'identity',
    })
    for (const [name] of REQUESTS)
      expect((exported[name] as { helmet: string[] }).helmet, name).to.deep.equal(helmetNames)
    expect(exported['401']).to.deep.include({ status: 401, encoding: 'gzip', json: 'unauthorized' })
    expect(exported['404']).to.deep.include({ status: 404, json: 'not_found' })
    expect(exported['500']).to.deep.include({ status: 500, json: 'internal' })
  })

  it('answers 304 without a body to a listing revalidated with its ETag', () => {
    expect(exported['listing revalidated']).to.deep.equal({ status: 304, body: '', outer: 'seen' })
    expect(exported['listing revalidated']).to.deep.equal(plain['listing revalidated'])
  })
})
