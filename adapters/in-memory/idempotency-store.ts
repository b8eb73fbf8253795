import { randomUUID } from 'node:crypto'
import * as TE from 'fp-ts/lib/TaskEither.js'
import type { IdempotencyRecord, IdempotencyScope, IdempotencyStore } from '../../core/index.js'

/** How often, at most, a claim also sweeps out expired keys. */
const PURGE_EVERY_MS = 60_000

const idOf = (scope: IdempotencyScope): string => JSON.stringify([scope.keyId, scope.key])

/**
 * Idempotency keys of one process. Records are replaced, never mutated, so a record handed out
 * stays as it was. Expired keys are swept at most once a minute, on a claim.
 */
export const createInMemoryIdempotencyStore = (): IdempotencyStore => {
  const records = new Map<string, IdempotencyRecord>()
  let purgedAt = -Infinity

  const purge = (now: number): number => {
    let purged = 0
    for (const [id, record] of records) if (record.expiresAt <= now && records.delete(id)) purged++
    purgedAt = now
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
      if (now - purgedAt >= PURGE_EVERY_MS) purge(now)
      const found = records.get(idOf(scope))
      if (found !== undefined && found.expiresAt > now)
        return TE.right({ _tag: 'Found', record: found })
      const op = randomUUID()
      records.set(idOf(scope), { ...claim, op })
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
    purgeExpiredKeys: (now) => TE.right(purge(now)),
  }
}
