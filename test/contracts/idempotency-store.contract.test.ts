import { expect } from 'chai'
import * as E from 'fp-ts/lib/Either.js'
import type * as TE from 'fp-ts/lib/TaskEither.js'
import { createInMemoryIdempotencyStore } from '../../adapters/in-memory/index.js'
import type { IdempotencyKey, IdempotencyStore, NewPet, Pet, PetStore } from '../../core/index.js'
import { forEachBackend, storageFor } from '../support/backends.js'
import type { Storage } from '../../apps/server/storage.js'

const run = async <A>(task: TE.TaskEither<unknown, A>): Promise<A> => {
  const result = await task()
  if (E.isLeft(result)) throw new Error(`store failed: ${JSON.stringify(result.left)}`)
  return result.right
}

const scope = (key: string, keyId = 'key-a') => ({ keyId, key: key as IdempotencyKey })
const claimAt = (now: number) => ({
  fingerprint: 'fp',
  leaseUntil: now + 1000,
  expiresAt: now + 10_000,
})
const rex = { name: 'Rex', categoryId: 7n, status: 'available' } as NewPet
const count = async (store: PetStore) => (await run(store.listPetPage({ limit: 100 }))).length

forEachBackend('IdempotencyStore contract', (backend) => {
  let storage: Storage
  let keys: IdempotencyStore
  beforeEach(async () => {
    storage = await storageFor(backend)
    keys = storage.idempotencyStore ?? createInMemoryIdempotencyStore()
  })
  afterEach(() => storage.close())

  it('claims a new key once; a second claim finds the record as claimed', async () => {
    const first = await run(keys.claimKey(scope('k1'), claimAt(1000), 1000))
    expect(first._tag).to.equal('Claimed')
    const second = await run(keys.claimKey(scope('k1'), claimAt(1500), 1500))
    expect(second._tag).to.equal('Found')
    if (second._tag !== 'Found' || first._tag !== 'Claimed') return
    expect(second.record).to.deep.include({
      fingerprint: 'fp',
      leaseUntil: 2000,
      expiresAt: 11_000,
    })
    expect(second.record.op).to.equal(first.op)
    expect(second.record.pet).to.equal(undefined)
  })

  it('gives exactly one of concurrent claims of a key', async () => {
    const results = await Promise.all(
      Array.from({ length: 8 }, () => run(keys.claimKey(scope('k2'), claimAt(1000), 1000))),
    )
    expect(results.filter((r) => r._tag === 'Claimed')).to.have.length(1)
  })

  it('scopes keys per API key', async () => {
    await run(keys.claimKey(scope('same', 'key-a'), claimAt(1000), 1000))
    const other = await run(keys.claimKey(scope('same', 'key-b'), claimAt(1000), 1000))
    expect(other._tag).to.equal('Claimed')
  })

  it('keeps the answer once completed, exactly (int64 ids)', async () => {
    const claimed = await run(keys.claimKey(scope('k3'), claimAt(1000), 1000))
    if (claimed._tag !== 'Claimed') return expect.fail('not claimed')
    const pet = { ...rex, id: 9223372036854775807n } as Pet
    await run(keys.completeKey(scope('k3'), claimed.op, pet))
    const found = await run(keys.claimKey(scope('k3'), claimAt(1100), 1100))
    expect(found._tag === 'Found' && found.record.pet).to.deep.equal(pet)
  })

  it('releases a pending key and lets one caller take it over', async () => {
    const claimed = await run(keys.claimKey(scope('k4'), claimAt(1000), 1000))
    if (claimed._tag !== 'Claimed') return expect.fail('not claimed')
    await run(keys.releaseKey(scope('k4'), claimed.op))
    const found = await run(keys.claimKey(scope('k4'), claimAt(1100), 1100))
    if (found._tag !== 'Found') return expect.fail('not found')
    expect(found.record.leaseUntil).to.equal(0)
    expect(await run(keys.takeOverKey(scope('k4'), claimed.op, 0, 5000))).to.equal(true)
    expect(await run(keys.takeOverKey(scope('k4'), claimed.op, 0, 5000))).to.equal(false)
  })

  it('forgets a pending key on request, the key then claimed anew; never a completed one', async () => {
    const forget = keys.forgetKey
    const claimed = await run(keys.claimKey(scope('k7'), claimAt(1000), 1000))
    if (claimed._tag !== 'Claimed') return expect.fail('not claimed')
    await run(forget(scope('k7'), 'another op'))
    expect((await run(keys.claimKey(scope('k7'), claimAt(1100), 1100)))._tag).to.equal('Found')
    await run(forget(scope('k7'), claimed.op))
    expect((await run(keys.claimKey(scope('k7'), claimAt(1200), 1200)))._tag).to.equal('Claimed')

    const done = await run(keys.claimKey(scope('k8'), claimAt(1000), 1000))
    if (done._tag !== 'Claimed') return expect.fail('not claimed')
    await run(keys.completeKey(scope('k8'), done.op, { ...rex, id: 5n } as Pet))
    await run(forget(scope('k8'), done.op))
    expect((await run(keys.claimKey(scope('k8'), claimAt(1300), 1300)))._tag).to.equal('Found')
  })

  it('forgets a key after its window: claimed anew, and purged', async () => {
    await run(keys.claimKey(scope('k5'), claimAt(1000), 1000))
    const again = await run(keys.claimKey(scope('k5'), claimAt(20_000), 20_000))
    expect(again._tag).to.equal('Claimed')
    await run(keys.claimKey(scope('k6'), claimAt(1000), 1000))
    expect(await run(keys.purgeExpiredKeys(100_000))).to.equal(2)
  })
})

forEachBackend('PetStore contract: insert with an op', (backend) => {
  let storage: Storage
  beforeEach(async () => (storage = await storageFor(backend)))
  afterEach(() => storage.close())

  it('stores one pet for the same op inserted twice, and answers it both times', async () => {
    const first = await run(storage.store.insertPet(rex, 'op-1'))
    const second = await run(storage.store.insertPet(rex, 'op-1'))
    expect(second).to.deep.equal(first)
    expect(await count(storage.store)).to.equal(1)
  })

  it('stores one pet for the same op inserted concurrently', async () => {
    const pets = await Promise.all(
      Array.from({ length: 6 }, () => run(storage.store.insertPet(rex, 'op-2'))),
    )
    expect(new Set(pets.map((p) => p.id)).size).to.equal(1)
    expect(await count(storage.store)).to.equal(1)
  })

  it('stores a pet per op, and a pet per insert without one', async () => {
    await run(storage.store.insertPet(rex, 'op-3'))
    await run(storage.store.insertPet(rex, 'op-4'))
    await run(storage.store.insertPet(rex))
    await run(storage.store.insertPet(rex))
    expect(await count(storage.store)).to.equal(4)
  })
})
