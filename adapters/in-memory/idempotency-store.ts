import { randomUUID } from 'node:crypto'
import { setImmediate as yieldToLoop } from 'node:timers/promises'
import * as E from 'fp-ts/lib/Either.js'
import * as TE from 'fp-ts/lib/TaskEither.js'
import type { IdempotencyRecord, IdempotencyScope, IdempotencyStore } from '../../core/index.js'
import { createExpiryQueue } from './expiry-queue.js'
import { createShardedMap } from './sharded-map.js'

/** Expired keys a claim removes at most: a claim's own cost stays small however many expire at once. */
export const PURGE_PER_CLAIM = 64
/** Expired keys an explicit purge removes between two turns of the event loop. */
const PURGE_PER_TURN = 2000

const idOf = (scope: IdempotencyScope): string => JSON.stringify([scope.keyId, scope.key])

/**
 * Idempotency keys of one process. Records are replaced, never mutated, so a record handed out
 * stays as it was. Each claim also removes a few expired keys, earliest first (expiry-queue.ts),
 * so expired keys go steadily and no sweep of the whole map ever stalls a request.
 */
export const createInMemoryIdempotencyStore = (): IdempotencyStore => {
  const records = createShardedMap<IdempotencyRecord>()
  const expiries = createExpiryQueue()

  /** Removes up to `limit` expired records; how many. An entry whose record was replaced is skipped. */
  const purge = (now: number, limit: number): number => {
    let purged = 0
    for (let seen = 0; seen < limit; seen++) {
      const due = expiries.takeExpired(now)
      if (due === undefined) break
      const record = records.get(due.id)
      if (record?.op === due.op && record.expiresAt <= now && records.delete(due.id)) purged++
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
    const id = idOf(scope)
    const record = records.get(id)
    if (record === undefined || record.op !== op || !when(record)) return false
    records.set(id, { ...record, ...change })
    return true
  }
  const pending = (r: IdempotencyRecord) => r.pet === undefined

  return {
    claimKey: (scope, claim, now) => {
      purge(now, PURGE_PER_CLAIM)
      const id = idOf(scope)
      const found = records.get(id)
      if (found !== undefined && found.expiresAt > now)
        return TE.right({ _tag: 'Found', record: found })
      const op = randomUUID()
      records.set(id, { ...claim, op })
      expiries.push({ at: claim.expiresAt, id, op })
      return TE.right({ _tag: 'Claimed', op })
    },
    takeOverKey: (scope, op, expected, leaseUntil) =>
      TE.right(update(scope, op, (r) => pending(r) && r.leaseUntil === expected, { leaseUntil })),
    completeKey: (scope, op, pet) =>
      TE.right(void update(scope, op, () => true, { pet, leaseUntil: 0 })),
    releaseKey: (scope, op) => TE.right(void update(scope, op, pending, { leaseUntil: 0 })),
    forgetKey: (scope, op) => {
      const record = records.get(idOf(scope))
      if (record?.op === op && pending(record)) records.delete(idOf(scope))
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
