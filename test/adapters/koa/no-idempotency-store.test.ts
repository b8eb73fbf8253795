import { expect } from 'chai'
import { createKoaApp } from '../../../adapters/koa/index.js'
import { apiKeysOf } from '../../../apps/server/api-keys.js'
import { inMemoryStorage } from '../../../apps/server/storage.js'
import { silentLogger } from '../../../core/index.js'
import { auth, TEST_KEY, testApiOptions, testConfig } from '../../support/app.js'
import { serve, type Client } from '../../support/http.js'

/** An embedding that gives createKoaApp no idempotency store, as the README allows. */
describe('HTTP: an embedding without an idempotency store', () => {
  let api: Client
  before(async () => {
    const storage = inMemoryStorage()
    const app = createKoaApp(
      {
        store: storage.store,
        apiKeys: apiKeysOf(testConfig(), storage, [TEST_KEY], silentLogger),
        logger: silentLogger,
        now: Date.now,
        checkReadiness: storage.checkReadiness,
      },
      testApiOptions(),
    )
    api = await serve(app.callback())
  })
  after(() => api.close())

  const create = (headers: Record<string, string>) =>
    api.request({
      method: 'POST',
      path: '/v1/pets',
      headers: { ...auth, 'Content-Type': 'application/json', ...headers },
      body: '{"name":"Rex","categoryId":7}',
    })

  it('answers a create with an Idempotency-Key 501 not_implemented, and stores nothing', async () => {
    const keyed = await create({ 'Idempotency-Key': 'order-1' })
    expect(keyed.status).to.equal(501)
    expect(keyed.json).to.include({ code: 'not_implemented', status: 501n })
    const listed = await api.request({ path: '/v1/pets', headers: auth })
    expect(listed.json).to.deep.equal([])
  })

  it('still creates without a key', async () => {
    const plain = await create({})
    expect(plain.status).to.equal(201)
    expect(plain.json).to.include({ name: 'Rex', categoryId: 7n })
  })
})
