import { expect } from 'chai'
import { GET_PET_DEPRECATION, INT64_MAX } from '../../core/index.js'
import { send, type Reply } from './http.js'

/*
 * The interface (the seed's animal-store-interface.md) asked of a running app from outside, over
 * HTTP only: whatever built it and wherever it is mounted, it must answer this way.
 */

/** An app answering on `port`, its API at `${mount}/v1`, `key` a valid key of every scope. */
export type ContractTarget = {
  readonly port: number
  readonly mount: string
  readonly key: string
  readonly close: () => Promise<void>
}

/** What differs between deployments, declared rather than guessed (as Level's `supports`). */
export type ContractSupports = {
  /** A keyed create is kept once (an idempotency store is given); else it answers 501. */
  readonly idempotency: boolean
}

const errorOf = (reply: Reply, code: string, status: number) => {
  expect(reply.status, reply.text).to.equal(status)
  expect(reply.json).to.deep.include({ code, status: BigInt(status) })
  expect((reply.json as { message: unknown }).message).to.be.a('string')
}

export const interfaceContract = (
  name: string,
  open: () => Promise<ContractTarget>,
  supports: ContractSupports,
): Mocha.Suite =>
  describe(`the interface over HTTP: ${name}`, () => {
    let target: ContractTarget
    beforeEach(async () => {
      target = await open()
    })
    afterEach(() => target.close())

    const base = () => `${target.mount}/v1`
    const auth = () => ({ Authorization: `Bearer ${target.key}` })
    const get = (path: string, headers: Record<string, string> = auth()) =>
      send(target.port, { path: `${base()}${path}`, headers })
    const create = (body: string, headers: Record<string, string> = {}) =>
      send(target.port, {
        method: 'POST',
        path: `${base()}/pets`,
        headers: { ...auth(), 'Content-Type': 'application/json', ...headers },
        body,
      })

    it('answers 401 with the Error body to every operation without a valid key', async () => {
      const stranger = { Authorization: 'Bearer not-a-key-0123456789' }
      errorOf(await get('/pets', {}), 'unauthorized', 401)
      errorOf(await get('/pets/1', stranger), 'unauthorized', 401)
      const anonymous = await send(target.port, { method: 'POST', path: `${base()}/pets` })
      expect(anonymous.status).to.equal(401)
      expect(anonymous.headers['www-authenticate']).to.match(/^Bearer /)
    })

    it('creates a pet (201, exact int64, Location where it is mounted) and gets it back', async () => {
      const created = await create(`{"name":"Rex","categoryId":${INT64_MAX},"status":"sold"}`)
      expect(created.status, created.text).to.equal(201)
      expect(created.json).to.deep.equal({
        id: 1n,
        name: 'Rex',
        categoryId: INT64_MAX,
        status: 'sold',
      })
      expect(created.headers.location).to.equal(`${base()}/pets/1`)
      const got = await send(target.port, {
        path: String(created.headers.location),
        headers: auth(),
      })
      expect(got.json).to.deep.equal(created.json)
      expect(got.headers.sunset).to.equal(GET_PET_DEPRECATION.sunsetAt.toUTCString())
      expect(got.headers.deprecation).to.match(/^@\d+$/)
      errorOf(await get('/pets/2'), 'not_found', 404)
    })

    it('refuses an invalid or oversized body with 400 and 413, storing nothing', async () => {
      errorOf(await create('{"categoryId":1}'), 'invalid_request', 400)
      errorOf(await create('{"name":"Rex","categoryId":"x"}'), 'invalid_request', 400)
      const padding = ' '.repeat(8192)
      errorOf(await create(`{"name":"Rex","categoryId":1}${padding}`), 'payload_too_large', 413)
      expect((await get('/pets')).json).to.deep.equal([])
    })

    it('lists 20 by default, 1 to 100 on request, filtered by status', async () => {
      for (let i = 0; i < 21; i++)
        await create(`{"name":"Pet ${i}","categoryId":1,"status":"${i < 3 ? 'sold' : 'pending'}"}`)
      expect((await get('/pets')).json).to.have.length(20)
      expect((await get('/pets?limit=100')).json).to.have.length(21)
      expect((await get('/pets?limit=1')).json).to.have.length(1)
      const sold = (await get('/pets?status=sold')).json as ReadonlyArray<{ name: string }>
      expect(sold.map((pet) => pet.name)).to.deep.equal(['Pet 0', 'Pet 1', 'Pet 2'])
      errorOf(await get('/pets?limit=0'), 'invalid_request', 400)
      errorOf(await get('/pets?limit=101'), 'invalid_request', 400)
    })

    it('serves its OpenAPI document without a key, its servers ending where it is mounted', async () => {
      const reply = await get('/openapi.json', {})
      expect(reply.status).to.equal(200)
      const document = reply.json as { servers: ReadonlyArray<{ url: string }>; paths: object }
      expect(document.servers).not.to.deep.equal([])
      for (const server of document.servers)
        expect(server.url.endsWith(base()), server.url).to.equal(true)
      expect(Object.keys(document.paths)).to.include.members(['/pets', '/pets/{petId}'])
    })

    it('answers the probes, 404 an unknown path and 405 a wrong method', async () => {
      for (const probe of ['/healthz', '/readyz'])
        expect((await send(target.port, { path: `${target.mount}${probe}` })).status).to.equal(200)
      errorOf(await get('/nowhere'), 'not_found', 404)
      const wrong = await send(target.port, {
        method: 'PUT',
        path: `${base()}/pets`,
        headers: auth(),
      })
      errorOf(wrong, 'method_not_allowed', 405)
      errorOf(await get('/store/orders'), 'not_implemented', 501)
    })

    it(`${supports.idempotency ? 'keeps a keyed create once' : 'answers 501 to a keyed create'}`, async () => {
      const keyed = { 'Idempotency-Key': 'order-42' }
      const first = await create('{"name":"Rex","categoryId":1}', keyed)
      if (!supports.idempotency) {
        errorOf(first, 'not_implemented', 501)
        return void expect((await get('/pets')).json).to.deep.equal([])
      }
      const again = await create('{"name":"Rex","categoryId":1}', keyed)
      expect([first.status, again.status]).to.deep.equal([201, 201])
      expect(again.json).to.deep.equal(first.json)
      expect((await get('/pets')).json).to.have.length(1)
    })
  })
