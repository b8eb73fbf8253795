import { expect } from 'chai'
import fc from 'fast-check'
import * as TE from 'fp-ts/lib/TaskEither.js'
import {
  createInMemoryIdempotencyStore,
  createInMemoryPetStore,
} from '../../../adapters/in-memory/index.js'
import {
  createPetIdempotently,
  IdempotencyKey,
  petFingerprint,
  type IdempotencyStore,
  type NewPet,
} from '../../../core/index.js'

const LEASE_MS = 5000
const rex: NewPet = { name: 'Rex', categoryId: 7n } as NewPet
const scope = { keyId: 'key-a', key: 'crash-1' as IdempotencyKey }

/** A store whose key `crash-1` was claimed at `claimedAt` by a request that then died. */
const abandonedClaim = async (claimedAt: number, keys: IdempotencyStore) => {
  const claim = {
    fingerprint: petFingerprint(rex),
    leaseUntil: claimedAt + LEASE_MS,
    expiresAt: claimedAt + 86_400_000,
  }
  const claimed = await keys.claimKey(scope, claim, claimedAt)()
  expect(claimed._tag === 'Right' && claimed.right._tag).to.equal('Claimed')
}

describe('createPetIdempotently: a key whose request died', () => {
  const attempt = (keys: IdempotencyStore, store = createInMemoryPetStore(), at: number) =>
    createPetIdempotently({
      insertPet: store.insertPet,
      idempotencyStore: keys,
      now: () => at,
      idempotencyPolicy: { windowMs: 86_400_000, leaseMs: LEASE_MS },
    })({ keyId: scope.keyId, key: 'crash-1', body: { name: 'Rex', categoryId: 7 } })()

  it('is in use until its lease ends, and says how long that is', async () => {
    const keys = createInMemoryIdempotencyStore()
    await abandonedClaim(1000, keys)
    for (const at of [1000, 2500, 5999])
      expect(await attempt(keys, undefined, at)).to.deep.equal({
        _tag: 'Left',
        left: { _tag: 'IdempotencyKeyInUse', leaseEndsInMs: 6000 - at },
      })
  })

  it('is taken over once the lease has ended: one pet, and the key then replays it', async () => {
    const keys = createInMemoryIdempotencyStore()
    const store = createInMemoryPetStore()
    await abandonedClaim(1000, keys)
    const taken = await attempt(keys, store, 6000)
    expect(taken._tag === 'Right' && taken.right.replayed).to.equal(false)
    const replay = await attempt(keys, store, 7000)
    expect(replay._tag === 'Right' && replay.right.replayed).to.equal(true)
    const all = await store.listPetPage({ limit: 10 })()
    expect(all._tag === 'Right' && all.right.length).to.equal(1)
  })

  it('is in use for a whole lease when another retry took it over first', async () => {
    const keys = createInMemoryIdempotencyStore()
    await abandonedClaim(1000, keys)
    const beaten = { ...keys, takeOverKey: () => TE.right(false) }
    expect(await attempt(beaten, undefined, 9000)).to.deep.equal({
      _tag: 'Left',
      left: { _tag: 'IdempotencyKeyInUse', leaseEndsInMs: LEASE_MS },
    })
  })
})

describe('createPetIdempotently: a refused create', () => {
  /** A refused request: a malformed key, an invalid body, a held key with another body, or a full store. */
  const refused = fc.oneof(
    fc.record({ key: fc.constant('bad key!'), body: fc.constant({ name: 'Rex', categoryId: 1 }) }),
    fc.record({ key: fc.uuid(), body: fc.constant({ name: '', categoryId: 1 }) }),
    fc.record({ key: fc.constant('held'), body: fc.constant({ name: 'Other', categoryId: 2 }) }),
    fc.record({ key: fc.uuid(), body: fc.constant({ name: 'Rex', categoryId: 1 }) }),
  )

  it('keeps no key, whatever refused it: a store with room for one more key still has it (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(refused, { minLength: 1, maxLength: 30 }), async (requests) => {
        const keys = createInMemoryIdempotencyStore({ capacity: 2 })
        const create = createPetIdempotently({
          insertPet: createInMemoryPetStore({ capacity: 1 }).insertPet,
          idempotencyStore: keys,
          now: () => 0,
        })
        const send = (key: unknown, body: unknown) => create({ keyId: 'a', key, body })()
        expect((await send('held', { name: 'Rex', categoryId: 1 }))._tag).to.equal('Right')
        for (const { key, body } of requests) expect((await send(key, body))._tag).to.equal('Left')
        const probe = { keyId: 'a', key: 'probe' as IdempotencyKey }
        const claim = { fingerprint: 'f', leaseUntil: 1, expiresAt: 86_400_000 }
        const claimed = await keys.claimKey(probe, claim, 0)()
        expect(claimed._tag === 'Right' && claimed.right._tag).to.equal('Claimed')
      }),
      { numRuns: 100 },
    )
  })
})

describe('createPetIdempotently: a retry across a deploy', () => {
  it('replays a key whose fingerprint an earlier version stored in its first form', async () => {
    const keys = createInMemoryIdempotencyStore()
    const store = createInMemoryPetStore()
    // What the version before the tagged fingerprint stored for Rex: every field, null if absent.
    const claim = { fingerprint: '["Rex","7",null]', leaseUntil: 1000, expiresAt: 86_400_000 }
    const claimed = await keys.claimKey(scope, claim, 0)()
    const op = claimed._tag === 'Right' && claimed.right._tag === 'Claimed' ? claimed.right.op : ''
    const first = await store.insertPet(rex, op)()
    if (first._tag === 'Left') throw new Error('insert failed')
    await keys.completeKey(scope, op, first.right)()
    const retry = (body: object) =>
      createPetIdempotently({
        insertPet: store.insertPet,
        idempotencyStore: keys,
        now: () => 2000,
      })({ keyId: scope.keyId, key: 'crash-1', body })()
    expect(await retry({ name: 'Rex', categoryId: 7 })).to.deep.equal({
      _tag: 'Right',
      right: { pet: first.right, replayed: true },
    })
    const other = await retry({ name: 'Rex', categoryId: 7, status: 'sold' })
    expect(other._tag === 'Left' && other.left._tag).to.equal('IdempotencyKeyReused')
  })
})
