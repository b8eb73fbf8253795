import { expect } from 'chai'
import Koa from 'koa'
import mount from 'koa-mount'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createInMemoryApiKeys, createInMemoryPetStore } from '../../../adapters/in-memory/index.js'
import { createKoaApp, type KoaAppOptions } from '../../../adapters/koa/index.js'
import { silentLogger } from '../../../core/index.js'
import { TEST_KEY, testApiOptions } from '../../support/app.js'

/*
 * The links the app hands out (Location, Link rel="next", the successor of the deprecated
 * operation, the document's default server, the reference page's assets) must resolve where a
 * client reaches the app: each is followed through the host, and must not be a 404.
 */

/** The service's settings, without its servers: the document's default server is the subject. */
const settings: KoaAppOptions = { ...testApiOptions({ RATE_LIMIT: 'off' }) }
delete (settings as { openApiServers?: unknown }).openApiServers

const apiWith = (options: Partial<KoaAppOptions> = {}, now = Date.now) =>
  createKoaApp(
    {
      store: createInMemoryPetStore(),
      apiKeys: createInMemoryApiKeys([TEST_KEY]),
      logger: silentLogger,
      now,
      checkReadiness: () => async () => ({ _tag: 'Right', right: undefined }),
    },
    { ...settings, ...options },
  )

/** Serves `host` while `use` runs, with `fetch` bound to its address. */
const serving = async (host: Koa, use: (at: (path: string) => string) => Promise<void>) => {
  const server = createServer(host.callback())
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  try {
    await use((path) => `http://127.0.0.1:${port}${path}`)
  } finally {
    await new Promise((resolve) => server.close(resolve))
  }
}

const key = { authorization: `Bearer ${TEST_KEY}` }
const create = (url: string) =>
  fetch(url, {
    method: 'POST',
    headers: { ...key, 'content-type': 'application/json' },
    body: '{"name":"Rex","categoryId":7}',
  })
/** The URL of the first `<...>` in a Link header. */
const linkTarget = (link: string | null) => /^<([^>]+)>/.exec(link ?? '')?.[1] ?? 'no link'

/** Creates two pets through the host, then follows every link the answers give. */
const followEveryLink = async (at: (path: string) => string, entry: string, base: string) => {
  const first = await create(at(`${entry}/pets`))
  expect(first.status).to.equal(201)
  await create(at(`${entry}/pets`))
  const location = first.headers.get('location') ?? ''
  expect(location).to.equal(`${base}/pets/1`)
  const fetched = await fetch(at(location), { headers: key })
  expect(fetched.status, location).to.equal(200)

  const page = await fetch(at(`${entry}/pets?limit=1`), { headers: key })
  const next = linkTarget(page.headers.get('link'))
  expect(next).to.equal(`${base}/pets?limit=1&after=1`)
  const nextPage = await fetch(at(next), { headers: key })
  expect(nextPage.status, next).to.equal(200)
  expect(await nextPage.text()).to.equal('[{"id":2,"name":"Rex","categoryId":7}]')

  const successor = linkTarget(fetched.headers.get('link'))
  expect(successor).to.equal(`${base}/pets`)
  expect((await fetch(at(successor), { headers: key })).status, successor).to.equal(200)

  const document = (await (await fetch(at(`${entry}/openapi.json`))).json()) as {
    servers: Array<{ url: string }>
  }
  expect(document.servers.map((s) => s.url)).to.deep.equal([base])
  const docsPage = await fetch(at(`${entry}/docs`))
  for (const [, url] of (await docsPage.text()).matchAll(/(?:src|data-openapi)="([^"]+)"/g))
    expect((await fetch(new URL(url as string, docsPage.url))).status, url).to.equal(200)
}

describe('links the app writes, where the app is mounted', () => {
  it('follow koa-mount: mounted at /shop, every link starts /shop/v1 and resolves', () => {
    const host = new Koa()
    host.use(mount('/shop', apiWith()))
    return serving(host, (at) => followEveryLink(at, '/shop/v1', '/shop/v1'))
  })

  it('start with the prefix the host declares, in front of the mount', () => {
    // A proxy in front of the host takes /api off: the host sees /shop/v1/... only.
    const proxied = new Koa()
    proxied.use((ctx, next) => {
      if (ctx.path.startsWith('/api/')) ctx.path = ctx.path.slice('/api'.length)
      return next()
    })
    proxied.use(mount('/shop', apiWith({ publicPrefix: '/api' })))
    return serving(proxied, (at) => followEveryLink(at, '/api/shop/v1', '/api/shop/v1'))
  })

  it('are the base path alone when the app is not mounted', () =>
    serving(apiWith(), (at) => followEveryLink(at, '/v1', '/v1')))

  it('keep the servers an embedding names, after the base where the app answers', async () => {
    const host = new Koa()
    const servers = [{ url: 'https://shop.example/shop/v1', description: 'Production' }]
    host.use(mount('/shop', apiWith({ openApiServers: servers })))
    await serving(host, async (at) => {
      const document = (await (await fetch(at('/shop/v1/openapi.json'))).json()) as object
      expect(document).to.deep.include({
        servers: [{ url: '/shop/v1', description: 'This service' }, ...servers],
      })
    })
  })

  it('name the successor where the app is mounted in the 410 past the sunset too', async () => {
    const host = new Koa()
    const afterSunset = () => Date.parse('2031-01-01T00:00:00Z')
    host.use(mount('/shop', apiWith({ publicPrefix: '/api' }, afterSunset)))
    await serving(host, async (at) => {
      const gone = await fetch(at('/shop/v1/pets/1'), { headers: key })
      expect(gone.status).to.equal(410)
      const { message } = (await gone.json()) as { message: string }
      expect(message).to.equal('this operation was removed; use GET /api/shop/v1/pets?status=...')
      expect(gone.headers.get('link')).to.include('title="GET /api/shop/v1/pets?status=..."')
    })
  })

  it('refuses a declared prefix that is not a path without a trailing slash', () => {
    for (const publicPrefix of ['shop', '/shop/', '/', '/a//b', '/a?b'])
      expect(() => apiWith({ publicPrefix }), publicPrefix).to.throw(/publicPrefix/)
    expect(() => apiWith({ publicPrefix: '' })).to.not.throw()
  })
})
