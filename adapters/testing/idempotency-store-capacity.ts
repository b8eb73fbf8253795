import assert from 'node:assert/strict'
import type { IdempotencyStore } from '../../core/index.js'
import { claimAt, claimedOp, foundRecord, scope, WINDOW_MS } from './idempotency-fixtures.js'
import { ok, type FreshStore, type Suite } from './suite.js'

/**
 * A bounded store (`supports.capacity`): full, it refuses a new key and records nothing; a key
 * forgotten (its create refused) or expired gives its place back at once, so refusals never
 * fill it.
 */
export const idempotencyStoreCapacity = (
  { it }: Suite<IdempotencyStore>,
  bounded: (capacity: number) => Promise<FreshStore<IdempotencyStore>>,
): void => {
  const claim = async (store: IdempotencyStore, key: string, now: number) =>
    claimedOp(await ok(store.claimKey(scope(key), claimAt(now), now)))

  it('capacity: refuses a new key past it and records nothing; a live key is still found', async () => {
    const { store, dispose } = await bounded(2)
    try {
      const now = Date.now()
      const a = await claim(store, 'a', now)
      await claim(store, 'b', now)
      const refused = await store.claimKey(scope('c'), claimAt(now), now)()
      assert.deepEqual(refused, {
        _tag: 'Left',
        left: { _tag: 'IdempotencyKeysFull', capacity: 2 },
      })
      foundRecord(await ok(store.claimKey(scope('a'), claimAt(now), now)))
      await ok(store.forgetKey(scope('a'), a))
      await claim(store, 'c', now)
      const later = now + WINDOW_MS
      for (const key of ['d', 'e']) await claim(store, key, later)
    } finally {
      await dispose()
    }
  })

  it('capacity: keys claimed then forgotten, one after another, never fill it', async () => {
    const { store, dispose } = await bounded(1)
    try {
      const now = Date.now()
      for (let i = 0; i < 1000; i++) {
        const op = await claim(store, `refused-${i}`, now)
        await ok(store.forgetKey(scope(`refused-${i}`), op))
      }
      await claim(store, 'kept', now)
    } finally {
      await dispose()
    }
  })
}
