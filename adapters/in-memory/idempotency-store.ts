import { randomUUID } from 'node:crypto'
import { setImmediate as yieldToLoop } from 'node:timers/promises'
import * as E from 'fp-ts/lib/Either.js'
import * as TE from 'fp-ts/lib/TaskEither.js'
import {
  idempotencyKeysFull,
  type IdempotencyRecord,
  type IdempotencyScope,
  type IdempotencyStore,
} from '../../core/index.js'
import { createExpiryQueue } from './expiry-queue.js'
import { capacityOf } from './pet-store.js'
import { createShardedMap } from './sharded-map.js'

/** Expired keys a claim removes at most: a claim's own cost stays small however many expire at once. */
export const PURGE_PER_CLAIM = 64
/** Expired keys an explicit purge removes between two turns of the event loop. */
const PURGE_PER_TURN = 2000

/** How the in-memory idempotency store is bounded. */
export type InMemoryIdempotencyStoreOptions = {
  /**
   * How many live keys it holds at most (1,000,000 by default); past it a claim of a new key is
   * refused with `IdempotencyKeysFull`. A whole number from 0, or `Infinity` for no limit;
   * anything else throws a RangeError.
   */
  readonly capacity?: number | undefined
}

/** A key's record, held both by id and in the expiry queue (at `slot`). */
type Entry = { record: IdempotencyRecord; readonly id: string; slot: number }

const idOf = (scope: IdempotencyScope): string => JSON.stringify([scope.keyId, scope.key])

/**
 * Idempotency keys of one process. Records are replaced, never mutated, so a record handed out
 * stays as it was. Each claim also removes a few expired keys, earliest first (expiry-queue.ts),
 * so expired keys go steadily and no sweep of the whole map ever stalls a request. A forgotten
 * key leaves at once, from the map and from the queue: a refused create keeps nothing. Past
 * `capacity` live keys a claim of a new one is refused, so the heap they take is bounded.
 */
export const createInMemoryIdempotencyStore = (
  options: InMemoryIdempotencyStoreOptions = {},
): IdempotencyStore => {
  const capacity = capacityOf(options)
  const entries = createShardedMap<Entry>()
  const expiries = createExpiryQueue<Entry>((entry) => entry.record.expiresAt)
  const remove = (entry: Entry) => {
    entries.delete(entry.id)
    expiries.remove(entry)
  }

  /** Removes up to `limit` expired records; how many. */
  const purge = (now: number, limit: number): number => {
    let purged = 0
    for (; purged < limit; purged++) {
      const due = expiries.takeExpired(now)
      if (due === undefined) break
      entries.delete(due.id)
    }
    return purged
  }

  /** Applies `change` to the record of `op`, when `when` holds; whether it did. */
  const update = (
    scope: IdempotencyScope,
    op: string,
    when: (r: IdempotencyRecord) => boolean,
    change: Partial<IdempotencyRecord>,
  ): boolean => {
    const entry = entries.get(idOf(scope))
    if (entry === undefined || entry.record.op !== op || !when(entry.record)) return false
    entry.record = { ...entry.record, ...change }
    return true
  }
  const pending = (r: IdempotencyRecord) => r.pet === undefined

  return {
    claimKey: (scope, claim, now) => {
      purge(now, PURGE_PER_CLAIM)
      const id = idOf(scope)
      const found = entries.get(id)
      if (found !== undefined && found.record.expiresAt > now)
        return TE.right({ _tag: 'Found', record: found.record })
      if (found !== undefined) remove(found) // expired, not yet purged
      if (expiries.size() >= capacity) return TE.left(idempotencyKeysFull(capacity))
      const entry: Entry = { record: { ...claim, op: randomUUID() }, id, slot: -1 }
      entries.set(id, entry)
      expiries.push(entry)
      return TE.right({ _tag: 'Claimed', op: entry.record.op })
    },
    takeOverKey: (scope, op, expected, leaseUntil) =>
      TE.right(update(scope, op, (r) => pending(r) && r.leaseUntil === expected, { leaseUntil })),
    completeKey: (scope, op, pet) =>
      TE.right(void update(scope, op, () => true, { pet, leaseUntil: 0 })),
    releaseKey: (scope, op) => TE.right(void update(scope, op, pending, { leaseUntil: 0 })),
    forgetKey: (scope, op) => {
      const entry = entries.get(idOf(scope))
      if (entry?.record.op === op && pending(entry.record)) remove(entry)
      return TE.right(undefined)
    },
    purgeExpiredKeys: (now) => async () => {
      let total = 0
      while (expiries.hasExpired(now)) {
        total += purge(now, PURGE_PER_TURN)
        await yieldToLoop()
      }
      return E.right(total)
    },
  }
}
