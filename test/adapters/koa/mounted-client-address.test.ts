import { expect } from 'chai'
import Koa from 'koa'
import mount from 'koa-mount'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createInMemoryApiKeys, createInMemoryPetStore } from '../../../adapters/in-memory/index.js'
import {
  createKoaApp,
  type KoaAppOptions,
  type RequestRecord,
} from '../../../adapters/koa/index.js'
import { silentLogger } from '../../../core/index.js'
import { TEST_KEY } from '../../support/app.js'

/*
 * koa-mount runs the app on the host's context, whose `ctx.ip` is the host's (Koa's `proxy`
 * setting). The app's budgets and its log follow the app's own `trustProxy` all the same, and
 * the host's `ctx.ip` is left as the host has it.
 */

const apiWith = (options: KoaAppOptions, records: RequestRecord[]) =>
  createKoaApp(
    {
      store: createInMemoryPetStore(),
      apiKeys: createInMemoryApiKeys([TEST_KEY]),
      logger: silentLogger,
      requestLine: (record) => records.push(record),
    },
    options,
  )

/** Serves `app` while `use` runs, with a function that GETs a path with some headers. */
const serving = async (
  app: Koa,
  use: (get: (path: string, headers: Record<string, string>) => Promise<number>) => Promise<void>,
) => {
  const server = createServer(app.callback())
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  try {
    await use(async (path, headers) => {
      const answer = await fetch(`http://127.0.0.1:${port}${path}`, { headers })
      await answer.arrayBuffer()
      return answer.status
    })
  } finally {
    await new Promise((resolve) => server.close(resolve))
  }
}

const key = { authorization: `Bearer ${TEST_KEY}` }
const wrongKey = { authorization: 'Bearer not-a-key-of-this-app' }
const tightFailures: KoaAppOptions['rateLimits'] = {
  perKey: { ratePerSecond: 1000, burst: 1000 },
  authFailures: { ratePerSecond: 0.001, burst: 2 },
}

describe('Koa app: the client address under koa-mount', () => {
  it('logs the client its trustProxy names, mounted as when served alone', async () => {
    for (const mounted of [false, true]) {
      const records: RequestRecord[] = []
      const api = apiWith({ trustProxy: { hops: 1 } }, records)
      const host = new Koa()
      host.use(mount('/shop', api))
      await serving(mounted ? host : api, async (get) => {
        const path = mounted ? '/shop/v1/pets' : '/v1/pets'
        expect(await get(path, { ...key, 'X-Forwarded-For': '203.0.113.9' })).to.equal(200)
      })
      expect(records.map((r) => r.client)).to.deep.equal(['203.0.113.9'])
    }
  })

  it('keeps the failure budget by the peer when it trusts no proxy, whatever the host trusts', async () => {
    const records: RequestRecord[] = []
    const api = apiWith({ rateLimits: tightFailures }, records)
    const hostIps: string[] = []
    const host = new Koa({ proxy: true })
    host.use(async (ctx, next) => {
      await next()
      hostIps.push(ctx.ip)
    })
    host.use(mount('/shop', api))
    const statuses: number[] = []
    await serving(host, async (get) => {
      for (let i = 1; i <= 5; i++)
        statuses.push(
          await get('/shop/v1/pets', { ...wrongKey, 'X-Forwarded-For': `198.51.100.${i}` }),
        )
    })
    // A forwarding header the app does not trust names no new client: the budget holds.
    expect(statuses).to.deep.equal([401, 401, 429, 429, 429])
    // The host's own ctx.ip follows the host's setting, as before the app ran.
    expect(hostIps).to.deep.equal([1, 2, 3, 4, 5].map((i) => `198.51.100.${i}`))
  })

  it('gives each client its own budget behind the proxies it trusts, mounted', async () => {
    const api = apiWith({ rateLimits: tightFailures, trustProxy: { hops: 1 } }, [])
    const host = new Koa()
    host.use(mount('/shop', api))
    const statuses: number[] = []
    await serving(host, async (get) => {
      for (const client of ['198.51.100.1', '198.51.100.1', '198.51.100.1', '198.51.100.2'])
        statuses.push(await get('/shop/v1/pets', { ...wrongKey, 'X-Forwarded-For': client }))
    })
    expect(statuses).to.deep.equal([401, 401, 429, 401])
  })
})
