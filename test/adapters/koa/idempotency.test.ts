import { expect } from 'chai'
import { stringify } from 'lossless-json'
import * as TE from 'fp-ts/lib/TaskEither.js'
import {
  createInMemoryIdempotencyStore,
  createInMemoryPetStore,
} from '../../../adapters/in-memory/index.js'
import { idempotencyKeyOf } from '../../../adapters/koa/request/idempotency-header.js'
import {
  createPetIdempotently,
  IDEMPOTENCY_KEY_MAX_LENGTH,
  storeUnavailable,
  type PetStore,
} from '../../../core/index.js'
import type { Storage } from '../../../apps/server/storage.js'
import { inMemoryStorage } from '../../../apps/server/storage.js'
import { auth, OTHER_KEY, startTestApi, TEST_KEY, type TestApi } from '../../support/app.js'
import { sendRaw } from '../../support/raw.js'
import { forEachBackend, storageFor } from '../../support/backends.js'
import { expectError } from '../../support/expect-error.js'

const rex = { name: 'Rex', categoryId: 7n, status: 'available' }
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

const postWith = (api: TestApi, key: string | undefined, body: unknown, authorization = auth) =>
  api.request({
    method: 'POST',
    path: `${api.basePath}/pets`,
    headers: {
      ...authorization,
      'Content-Type': 'application/json',
      ...(key === undefined ? {} : { 'Idempotency-Key': key }),
    },
    body: stringify(body) as string,
  })

const countPets = async (store: PetStore) => {
  const page = await store.listPetPage({ limit: 100 })()
  if (page._tag === 'Left') throw new Error('store failed')
  return page.right.length
}

forEachBackend('HTTP: Idempotency-Key on POST /pets', (backend) => {
  let storage: Storage
  let api: TestApi
  const start = async (wrap: (store: PetStore) => PetStore = (s) => s) => {
    storage = await storageFor(backend)
    api = await startTestApi({ storage: { ...storage, store: wrap(storage.store) } })
  }
  afterEach(() => api.close())

  it('replays the first answer: same status, body and Location, marked, and one pet', async () => {
    await start()
    const first = await postWith(api, 'order-123', rex)
    expect(first.status).to.equal(201)
    expect(first.headers['idempotent-replayed']).to.equal(undefined)
    const again = await postWith(api, '"order-123"', {
      status: 'available',
      categoryId: 7,
      name: 'Rex',
    })
    expect(again.status).to.equal(201)
    expect(again.text).to.equal(first.text)
    expect(again.headers.location).to.equal(first.headers.location)
    expect(again.headers['idempotent-replayed']).to.equal('true')
    expect(await countPets(storage.store)).to.equal(1)
  })

  it('answers 422 to the same key with another body, and stores nothing more', async () => {
    await start()
    expect((await postWith(api, 'k-422', rex)).status).to.equal(201)
    expectError(
      await postWith(api, 'k-422', { ...rex, name: 'Max' }),
      422,
      'idempotency_key_reused',
    )
    expect(await countPets(storage.store)).to.equal(1)
  })

  it('answers 400 to a malformed key and stores nothing', async () => {
    await start()
    for (const key of [
      'has space',
      'x'.repeat(IDEMPOTENCY_KEY_MAX_LENGTH + 1),
      '""',
      '"unterminated',
    ])
      expectError(await postWith(api, key, rex), 400, 'invalid_request', 'Idempotency-Key')
    expect(await countPets(storage.store)).to.equal(0)
  })

  it('scopes keys per API key: another key reusing it creates its own pet', async () => {
    await start()
    const mine = await postWith(api, 'shared-key', rex)
    const theirs = await postWith(api, 'shared-key', rex, {
      Authorization: `Bearer ${OTHER_KEY}`,
    })
    expect(theirs.status).to.equal(201)
    expect(theirs.headers['idempotent-replayed']).to.equal(undefined)
    expect(theirs.headers.location).to.not.equal(mine.headers.location)
    expect(await countPets(storage.store)).to.equal(2)
  })

  it('never touches the idempotency store without a key', async () => {
    storage = await storageFor(backend)
    const untouchable = new Proxy(
      {},
      {
        get: () => {
          throw new Error('the idempotency store was used')
        },
      },
    )
    api = await startTestApi({ storage: { ...storage, idempotencyStore: untouchable as never } })
    expect((await postWith(api, undefined, rex)).status).to.equal(201)
    expect((await postWith(api, undefined, rex)).status).to.equal(201)
  })

  it('fault injection: the insert lands but its answer is lost; a retry with the key gives one pet', async () => {
    let failures = 1
    await start((store) => ({
      ...store,
      insertPet: (pet, op) => async () => {
        const stored = await store.insertPet(pet, op)()
        if (failures-- > 0) return TE.left(storeUnavailable('answer lost'))()
        return stored
      },
    }))
    expectError(await postWith(api, 'lost-1', rex), 503, 'unavailable')
    expect(await countPets(storage.store)).to.equal(1)
    const retry = await postWith(api, 'lost-1', rex)
    expect(retry.status).to.equal(201)
    const replay = await postWith(api, 'lost-1', rex)
    expect(replay.headers['idempotent-replayed']).to.equal('true')
    expect(replay.text).to.equal(retry.text)
    expect(await countPets(storage.store)).to.equal(1)
  })

  it('fault injection: the insert lands then hangs past its deadline; in flight is 409, the retry gives one pet', async () => {
    let hangs = 1
    await start((store) => ({
      ...store,
      insertPet: (pet, op) => async () => {
        const stored = await store.insertPet(pet, op)()
        if (hangs-- > 0) {
          await sleep(1000)
          return TE.left(storeUnavailable('deadline passed'))()
        }
        return stored
      },
    }))
    const first = postWith(api, 'slow-1', rex)
    // Once the pet has landed, the first request holds the key until its (lost) answer.
    while ((await countPets(storage.store)) === 0) await sleep(20)
    const inFlight = await postWith(api, 'slow-1', rex)
    expectError(inFlight, 409, 'idempotency_key_in_use')
    expect(inFlight.headers['retry-after']).to.match(/^[1-9][0-9]*$/)
    expectError(await first, 503, 'unavailable')
    const retry = await postWith(api, 'slow-1', rex)
    expect(retry.status).to.equal(201)
    expect(await countPets(storage.store)).to.equal(1)
  })
})

describe('Idempotency-Key: a repeated header', () => {
  it('reaches the use case as every value, and is refused as sent more than once', async () => {
    // As Node presents two headers: joined in `headers`, every value in `headersDistinct`.
    const key = idempotencyKeyOf({
      headers: { 'idempotency-key': 'a, a' },
      headersDistinct: { 'idempotency-key': ['a', 'a'] },
    } as never)
    expect(key).to.deep.equal(['a', 'a'])
    const create = createPetIdempotently({
      insertPet: createInMemoryPetStore().insertPet,
      idempotencyStore: createInMemoryIdempotencyStore(),
      now: Date.now,
    })
    const result = await create({ keyId: 'k', key, body: rex })()
    expect(result._tag === 'Left' && result.left).to.deep.include({ _tag: 'InvalidInput' })
    expect(JSON.stringify(result)).to.include('must be sent once')
  })
})

describe('Idempotency-Key: a repeated header over the wire', () => {
  it('answers 400 invalid_request and stores nothing, even when both values are equal', async () => {
    const storage = inMemoryStorage()
    const api = await startTestApi({ storage })
    try {
      const body = '{"name":"Rex","categoryId":1}'
      const reply = await sendRaw(
        api.port,
        [
          'POST /v1/pets HTTP/1.1',
          'Host: localhost',
          `Authorization: Bearer ${TEST_KEY}`,
          'Content-Type: application/json',
          'Idempotency-Key: same',
          'Idempotency-Key: same',
          `Content-Length: ${body.length}`,
          'Connection: close',
          '',
          body,
        ].join('\r\n'),
      )
      expect(reply.status).to.equal(400)
      expect(reply.body).to.include('"code":"invalid_request"')
      expect(reply.body).to.include('must be sent once')
      expect(await countPets(storage.store)).to.equal(0)
    } finally {
      await api.close()
    }
  })
})

describe('Idempotency-Key: an instance that dies mid-create', () => {
  it('holds the key for 3 × STORE_TIMEOUT_MS at most: 409 with a Retry-After never past that, then a retry takes over', async () => {
    let clock = 1_800_000_000_000
    const now = () => clock
    const storage = inMemoryStorage()
    // STORE_TIMEOUT_MS=1000: the lease is 3 s. The dying instance claims the key, then its insert
    // never ends, as when the process is killed; the survivor shares its stores and its clock.
    const env = { STORE_TIMEOUT_MS: '1000', RETRY_AFTER_SECONDS: '2' }
    let reached = () => {}
    const inserting = new Promise<void>((resolve) => (reached = resolve))
    const hung: PetStore = {
      ...storage.store,
      insertPet: () => () => {
        reached()
        return new Promise(() => {})
      },
    }
    const dying = await startTestApi({ storage: { ...storage, store: hung }, now, env })
    const survivor = await startTestApi({ storage, now, env })
    try {
      postWith(dying, 'crash-1', rex).catch(() => undefined)
      await inserting
      const retryAfter = async () => {
        const reply = await postWith(survivor, 'crash-1', rex)
        expectError(reply, 409, 'idempotency_key_in_use')
        return reply.headers['retry-after']
      }
      expect(await retryAfter()).to.equal('2') // 3 s left: the usual 2
      clock += 2400
      expect(await retryAfter()).to.equal('1') // 0.6 s left
      clock += 600
      const taken = await postWith(survivor, 'crash-1', rex)
      expect(taken.status).to.equal(201)
      expect(await countPets(storage.store)).to.equal(1)
    } finally {
      await dying.close()
      await survivor.close()
    }
  })
})
