import assert from 'node:assert/strict'
import fc from 'fast-check'
import type { IdempotencyStore, Pet, PetId } from '../../core/index.js'
import { newPet, positiveInt64 } from './arbitraries.js'
import { claimAt, claimedOp, foundRecord, scope, WINDOW_MS } from './idempotency-fixtures.js'
import type { IdempotencyStoreSupports } from './idempotency-store-contract.js'
import { ok, type Suite } from './suite.js'

/** A record's life after its claim: completed, released, taken over, forgotten, expired. */
export const idempotencyStoreLifecycle = (
  { store, it, properties }: Suite<IdempotencyStore>,
  supports: IdempotencyStoreSupports,
): void => {
  const claim = async (key: string, now: number): Promise<string> =>
    claimedOp(await ok(store().claimKey(scope(key), claimAt(now), now)))

  it('keeps the answer of a completed key exactly, int64 ids included (property)', async () => {
    const now = Date.now()
    let n = 0
    await fc.assert(
      fc.asyncProperty(newPet(), positiveInt64(), async (given, id) => {
        const key = `done-${n++}`
        const op = await claim(key, now)
        const pet = { ...given, id: id as PetId } as Pet
        await ok(store().completeKey(scope(key), op, pet))
        const record = foundRecord(await ok(store().claimKey(scope(key), claimAt(now), now + 1)))
        assert.deepEqual(record.pet, pet)
        assert.equal(record.op, op)
      }),
      { numRuns: properties },
    )
  })

  it('releases a pending key at once; one take-over of the lease wins, then it has moved', async () => {
    const now = Date.now()
    const op = await claim('k4', now)
    await ok(store().releaseKey(scope('k4'), op))
    const { leaseUntil } = foundRecord(await ok(store().claimKey(scope('k4'), claimAt(now), now)))
    assert.ok(leaseUntil <= now, `a released lease ends at once: ${leaseUntil} > ${now}`)
    assert.equal(await ok(store().takeOverKey(scope('k4'), op, leaseUntil, now + 5000)), true)
    assert.equal(await ok(store().takeOverKey(scope('k4'), op, leaseUntil, now + 5000)), false)
    assert.equal(await ok(store().takeOverKey(scope('k4'), 'another op', now + 5000, now)), false)
  })

  it('never takes over a completed key', async () => {
    const now = Date.now()
    const op = await claim('k5', now)
    await ok(store().completeKey(scope('k5'), op, { name: 'Rex', categoryId: 1n, id: 2n } as Pet))
    const { leaseUntil } = foundRecord(await ok(store().claimKey(scope('k5'), claimAt(now), now)))
    assert.equal(await ok(store().takeOverKey(scope('k5'), op, leaseUntil, now + 5000)), false)
  })

  if (supports.atomicTakeOver)
    it('gives exactly one of concurrent take-overs of a lease', async () => {
      const now = Date.now()
      const op = await claim('k6', now)
      const wins = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          ok(store().takeOverKey(scope('k6'), op, now + 1000, now + 2000 + i)),
        ),
      )
      assert.equal(wins.filter(Boolean).length, 1)
    })

  it('forgets a pending key of its op, which is then claimed anew; never a completed one', async () => {
    const now = Date.now()
    const forget = store().forgetKey
    const op = await claim('k7', now)
    await ok(forget(scope('k7'), 'another op'))
    foundRecord(await ok(store().claimKey(scope('k7'), claimAt(now), now)))
    await ok(forget(scope('k7'), op))
    claimedOp(await ok(store().claimKey(scope('k7'), claimAt(now), now)))

    const done = await claim('k8', now)
    await ok(store().completeKey(scope('k8'), done, { name: 'Rex', categoryId: 1n, id: 5n } as Pet))
    await ok(forget(scope('k8'), done))
    foundRecord(await ok(store().claimKey(scope('k8'), claimAt(now), now)))
  })

  it('forgets a key after its window: purged with the other expired ones, then claimed anew', async () => {
    const now = Date.now()
    for (const key of ['k9', 'k10', 'k11']) await claim(key, now)
    const later = now + WINDOW_MS / 2
    await claim('k12', later)
    const past = now + WINDOW_MS + 1
    assert.equal(await ok(store().purgeExpiredKeys(past)), 3)
    assert.equal(await ok(store().purgeExpiredKeys(past)), 0)
    foundRecord(await ok(store().claimKey(scope('k12'), claimAt(past), past)))
    claimedOp(await ok(store().claimKey(scope('k9'), claimAt(past), past)))
  })

  it('claims a key anew once its window has passed, purged or not', async () => {
    const now = Date.now()
    const first = await claim('k13', now)
    const again = await claim('k13', now + WINDOW_MS)
    assert.notEqual(again, first)
  })
}
