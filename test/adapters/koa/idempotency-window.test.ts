import { expect } from 'chai'
import type { Storage } from '../../../apps/server/storage.js'
import type { Pet } from '../../../core/index.js'
import { auth, startTestApi, type TestApi } from '../../support/app.js'
import { forEachBackend, storageFor } from '../../support/backends.js'

const HOUR_MS = 3600_000
const BODY = '{"name":"Rex","categoryId":7,"status":"available"}'

/**
 * The README's window, through the composition root as the service wires it (no policy given,
 * so the use case's default applies), on a clock the test moves.
 */
forEachBackend('HTTP: Idempotency-Keys are kept 24 h from first use', (backend) => {
  let storage: Storage
  let api: TestApi
  let now = 0
  const post = (key: string) =>
    api.request({
      method: 'POST',
      path: '/v1/pets',
      headers: { ...auth, 'Content-Type': 'application/json', 'Idempotency-Key': key },
      body: BODY,
    })
  const countPets = async () => {
    const page = await storage.store.listPetPage({ limit: 100 })()
    if (page._tag === 'Left') throw new Error('store failed')
    return page.right.length
  }

  beforeEach(async () => {
    now = Date.now()
    storage = await storageFor(backend)
    api = await startTestApi({ storage, now: () => now })
  })
  afterEach(() => api.close())

  it('replays a retry just under 24 h later, and treats one just over 24 h as new', async () => {
    const started = now
    const first = await post('order-24h')
    expect(first.status).to.equal(201)
    const pet = first.json as Pet

    now = started + 24 * HOUR_MS - 1000
    const replayed = await post('order-24h')
    expect(replayed.status).to.equal(201)
    expect(replayed.headers['idempotent-replayed']).to.equal('true')
    expect(replayed.text).to.equal(first.text)
    expect(await countPets()).to.equal(1)

    now = started + 24 * HOUR_MS + 1000
    const fresh = await post('order-24h')
    expect(fresh.status).to.equal(201)
    expect(fresh.headers['idempotent-replayed']).to.equal(undefined)
    expect((fresh.json as Pet).id).to.not.equal(pet.id)
    expect(fresh.headers.location).to.equal(`/v1/pets/${(fresh.json as Pet).id}`)
    expect(await countPets()).to.equal(2)

    // The key's new window starts at its new first use: a retry now replays the new pet.
    now += 23 * HOUR_MS
    const again = await post('order-24h')
    expect(again.headers['idempotent-replayed']).to.equal('true')
    expect(again.text).to.equal(fresh.text)
    expect(await countPets()).to.equal(2)
  })

  it('counts the window from the first use, not from the last replay', async () => {
    const started = now
    expect((await post('first-use')).status).to.equal(201)
    for (const hours of [6, 12, 18, 23]) {
      now = started + hours * HOUR_MS
      const retry = await post('first-use')
      expect(retry.headers['idempotent-replayed'], `${hours} h`).to.equal('true')
    }
    now = started + 24 * HOUR_MS + 1000
    const after = await post('first-use')
    expect(after.status).to.equal(201)
    expect(after.headers['idempotent-replayed']).to.equal(undefined)
    expect(await countPets()).to.equal(2)
  })
})
