import { randomUUID } from 'node:crypto'
import { setImmediate as yieldToLoop } from 'node:timers/promises'
import * as O from 'fp-ts/lib/Option.js'
import type { Db } from 'mongodb'
import type { ApiKeyRegistry, StoredKey } from '../../core/index.js'
import { withDeadline } from './deadline.js'
import {
  API_KEYS_COLLECTION,
  API_KEYS_VERSION_COLLECTION,
  documentOf,
  storedKeyOf,
  type KeyDocument,
  type VersionDocument,
} from './key-documents.js'
import { fromDriver } from './store-failure.js'

/** Documents per batch of a full read: each batch is decoded in one turn of the event loop. */
const BATCH = 1000
/** A full read may take this many budgets: it runs only after a change, in the background. */
const FULL_READ_BUDGETS = 10
const VERSION_ID = 'api_keys'
/** The version before any change was recorded. */
const UNMARKED = 'unmarked'

/**
 * Minted keys in a collection, digests only, with a unique index on the digest. The index is
 * made when a key is added (the CLI), so the service itself only ever reads, within
 * `timeoutMs` like a store call (deadline.ts). Every change replaces the version token.
 */
export const createMongoApiKeyRegistry = (
  db: Db,
  options: { readonly timeoutMs?: number } = {},
): ApiKeyRegistry => {
  const keys = db.collection<KeyDocument>(API_KEYS_COLLECTION)
  const versions = db.collection<VersionDocument>(API_KEYS_VERSION_COLLECTION)
  const timeoutMs = options.timeoutMs ?? 2000
  const changed = () =>
    versions.updateOne({ _id: VERSION_ID }, { $set: { token: randomUUID() } }, { upsert: true })
  const readAll = (maxTimeMS: number) => async () => {
    const found: StoredKey[] = []
    for await (const d of keys.find({}, { maxTimeMS, batchSize: BATCH })) {
      found.push(storedKeyOf(d))
      if (found.length % BATCH === 0) await yieldToLoop()
    }
    return found
  }
  return {
    // Bounded like any store call: requests wait for this read once the cached keys are old.
    listKeys: () =>
      fromDriver(() => withDeadline(timeoutMs, (deadline) => readAll(deadline.check())())),
    // The token is read before the keys: a change made after it replaces it, so it is read next time.
    readKeysIfChanged: (seen) =>
      fromDriver(async () => {
        const marker = await withDeadline(timeoutMs, (deadline) =>
          versions.findOne({ _id: VERSION_ID }, { maxTimeMS: deadline.check() }),
        )
        const version = marker?.token ?? UNMARKED
        if (version === seen) return O.none
        const found = await withDeadline(FULL_READ_BUDGETS * timeoutMs, (deadline) =>
          readAll(deadline.check())(),
        )
        return O.some({ version, keys: found })
      }),
    addKey: (key) =>
      fromDriver(async () => {
        await keys.createIndex({ digest: 1 }, { unique: true, name: 'digest_1' })
        await keys.insertOne(documentOf(key))
        await changed()
      }),
    revokeKey: (id, at) =>
      fromDriver(async () => {
        await keys.updateOne({ _id: id, revokedAt: null }, { $set: { revokedAt: new Date(at) } })
        await changed()
        return (await keys.countDocuments({ _id: id }, { limit: 1 })) > 0
      }),
    pruneKeys: (before) =>
      fromDriver(async () => {
        const cutoff = new Date(before)
        const { deletedCount } = await keys.deleteMany({
          $or: [{ expiresAt: { $lt: cutoff } }, { revokedAt: { $lt: cutoff } }],
        })
        if (deletedCount > 0) await changed()
        return deletedCount
      }),
  }
}
