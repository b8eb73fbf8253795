import { expect } from 'chai'
import Koa from 'koa'
import mount from 'koa-mount'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Writable } from 'node:stream'
import { pino } from 'pino'
import { createInMemoryApiKeys, createInMemoryPetStore } from '../../../adapters/in-memory/index.js'
import { createKoaApp } from '../../../adapters/koa/index.js'
import { TEST_KEY } from '../../support/app.js'

/*
 * Mounted, the app runs on the host's context: what it leaves in `ctx.state` is the host's to
 * see, and a host that reads the request's body first leaves the app none to read. Both as
 * docs/embedding.md says.
 */

/** The `ctx.state` names docs/embedding.md lists as the app's. */
const DOCUMENTED_STATE = ['principal', 'clientAddress', 'trace', 'bodyTaken', 'storeFailure']

const logged: Array<{ msg?: string; err?: { message?: string } }> = []
const logger = pino(
  { level: 'error' },
  new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean))
        logged.push(JSON.parse(line) as (typeof logged)[number])
      done()
    },
  }),
)

const api = () =>
  createKoaApp({
    store: createInMemoryPetStore(),
    apiKeys: createInMemoryApiKeys([TEST_KEY]),
    logger,
  })

const serving = async (host: Koa, use: (base: string) => Promise<void>) => {
  const server = createServer(host.callback())
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  try {
    await use(`http://127.0.0.1:${port}`)
  } finally {
    await new Promise((resolve) => server.close(resolve))
  }
}

const key = { authorization: `Bearer ${TEST_KEY}` }
const json = { ...key, 'content-type': 'application/json' }

describe('Koa app: what it shares with the host that mounts it', () => {
  it('leaves in ctx.state only the names the docs list', async () => {
    const host = new Koa()
    const seen = new Set<string>()
    host.use(async (ctx, next) => {
      await next()
      for (const name of Object.keys(ctx.state)) seen.add(name)
    })
    host.use(mount('/shop', api()))
    await serving(host, async (base) => {
      const requests: Array<[string, RequestInit]> = [
        ['/shop/v1/pets', { method: 'POST', headers: json, body: '{"name":"Rex","categoryId":1}' }],
        ['/shop/v1/pets', { headers: key }],
        ['/shop/v1/pets/1', { headers: key }],
        ['/shop/v1/pets', { headers: { authorization: 'Bearer wrong' } }],
        ['/shop/v1/nothing', { headers: key }],
        ['/shop/v1/openapi.json', {}],
        ['/shop/healthz', {}],
      ]
      for (const [path, init] of requests) await (await fetch(`${base}${path}`, init)).arrayBuffer()
    })
    expect([...seen]).to.include('principal')
    expect([...seen].filter((name) => !DOCUMENTED_STATE.includes(name))).to.deep.equal([])
  })

  it('answers 500 and logs why when a host read the body before it', async () => {
    logged.length = 0
    const host = new Koa()
    // What a body parser does: the request's stream read whole before the mount.
    host.use(async (ctx, next) => {
      const chunks: Buffer[] = []
      for await (const chunk of ctx.req as AsyncIterable<Buffer>) chunks.push(chunk)
      ;(ctx.request as { body?: unknown }).body = JSON.parse(Buffer.concat(chunks).toString())
      return next()
    })
    host.use(mount('/shop', api()))
    await serving(host, async (base) => {
      const init = { method: 'POST', headers: json, body: '{"name":"Rex","categoryId":1}' }
      const answer = await fetch(`${base}/shop/v1/pets`, init)
      expect(answer.status).to.equal(500)
      expect(await answer.json()).to.deep.equal({
        code: 'internal',
        message: 'an unexpected error occurred',
        status: 500,
      })
    })
    expect(logged.map((line) => line.err?.message)).to.deep.equal([
      'the request body was read before the app: mount the app before any body parser, or beside it',
    ])
  })
})
