import { randomUUID } from 'node:crypto'
import { isLeft, isRight } from 'fp-ts/lib/Either.js'
import type { Collection, Db } from 'mongodb'
import {
  Pet,
  type IdempotencyRecord,
  type IdempotencyScope,
  type IdempotencyStore,
} from '../../core/index.js'
import { withDeadline } from './deadline.js'
import { fromDriver, isDuplicateKey } from './store-failure.js'

/** The collection of idempotency records. */
export const IDEMPOTENCY_KEYS = 'idempotency_keys'
/** How often, at most, one instance's claims also purge expired keys (FerretDB has no TTL). */
const PURGE_EVERY_MS = 60_000

/**
 * `_id` is the pair (API key id, idempotency key), so the built-in unique `_id` index is the
 * unique index on that pair, and a lookup is an `_id` equality (pushed down even by FerretDB).
 * `expiresAt` is a Date so that MongoDB's TTL index can expire it.
 */
export type IdempotencyDocument = {
  _id: string
  keyId: string
  key: string
  fingerprint: string
  op: string
  leaseUntil: number
  expiresAt: Date
  pet?: Pet
}

const idOf = (scope: IdempotencyScope): string => JSON.stringify([scope.keyId, scope.key])

const toRecord = (doc: IdempotencyDocument): IdempotencyRecord => {
  const pet = doc.pet === undefined ? undefined : Pet.decode(doc.pet)
  if (pet !== undefined && !isRight(pet))
    throw new Error(`stored answer of ${doc._id} does not decode`)
  return {
    fingerprint: doc.fingerprint,
    op: doc.op,
    leaseUntil: doc.leaseUntil,
    expiresAt: doc.expiresAt.getTime(),
    ...(pet === undefined ? {} : { pet: pet.right }),
  }
}

/**
 * The IdempotencyStore port on MongoDB. Every step is one single-document write, so nothing
 * relies on transactions; the one guarantee that matters (one pet per key) is the pets'
 * unique `_idem` index (indexes.ts), not anything here.
 */
export const createMongoIdempotencyStore = (
  db: Db,
  options: { readonly timeoutMs?: number } = {},
): IdempotencyStore => {
  const keys: Collection<IdempotencyDocument> = db.collection(IDEMPOTENCY_KEYS)
  // Each call has the pet store's budget (STORE_TIMEOUT_MS), so a keyed create stays bounded.
  const timeoutMs = options.timeoutMs ?? 2000
  const bounded = <A>(run: () => Promise<A>) =>
    fromDriver(() => withDeadline(timeoutMs, () => run()))
  let purgedAt = -Infinity

  const purge = async (now: number) =>
    (await keys.deleteMany({ expiresAt: { $lte: new Date(now) } })).deletedCount

  /** Inserts the claim; on a duplicate, returns the live record, or replaces an expired one. */
  const claim = async (doc: IdempotencyDocument, now: number) => {
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        await keys.insertOne(doc)
        return { _tag: 'Claimed', op: doc.op } as const
      } catch (error) {
        if (!isDuplicateKey(error)) throw error
      }
      const found = await keys.findOne({ _id: doc._id })
      if (found !== null && found.expiresAt.getTime() > now)
        return { _tag: 'Found', record: toRecord(found) } as const
      // Expired but not yet purged: forget it (only that very record) and claim again.
      if (found !== null) await keys.deleteOne({ _id: doc._id, op: found.op })
    }
    throw new Error('the idempotency key could not be claimed')
  }

  const pendingOf = (scope: IdempotencyScope, op: string) => ({
    _id: idOf(scope),
    op,
    pet: { $exists: false },
  })

  return {
    claimKey:
      (scope, { fingerprint, leaseUntil, expiresAt }, now) =>
      async () => {
        if (now - purgedAt >= PURGE_EVERY_MS) {
          purgedAt = now
          purge(now).catch(() => (purgedAt = -Infinity))
        }
        const doc = {
          _id: idOf(scope),
          keyId: scope.keyId,
          key: scope.key,
          fingerprint,
          op: randomUUID(),
          leaseUntil,
          expiresAt: new Date(expiresAt),
        }
        let refused = false
        const result = await bounded(async () => {
          const claimed = await claim(doc, now)
          // Past the deadline the request was refused 503: a record nobody holds would stay a day.
          if (refused && claimed._tag === 'Claimed') await keys.deleteOne(pendingOf(scope, doc.op))
          return claimed
        })()
        refused = isLeft(result)
        return result
      },
    takeOverKey: (scope, op, expected, leaseUntil) =>
      bounded(async () => {
        const filter = { ...pendingOf(scope, op), leaseUntil: expected }
        return (await keys.updateOne(filter, { $set: { leaseUntil } })).modifiedCount === 1
      }),
    completeKey: (scope, op, pet) =>
      bounded(async () => {
        // Every field the pet has (so one added to the Pet codecs is replayed too), the absent
        // ones left out: BSON has no undefined, and a null would not decode.
        const stored = Object.fromEntries(
          Object.entries(pet).filter(([, value]) => value !== undefined),
        ) as Pet
        await keys.updateOne({ _id: idOf(scope), op }, { $set: { pet: stored, leaseUntil: 0 } })
      }),
    releaseKey: (scope, op) =>
      bounded(
        async () => void (await keys.updateOne(pendingOf(scope, op), { $set: { leaseUntil: 0 } })),
      ),
    forgetKey: (scope, op) =>
      bounded(async () => void (await keys.deleteOne(pendingOf(scope, op)))),
    purgeExpiredKeys: (now) => bounded(() => purge(now)),
  }
}
