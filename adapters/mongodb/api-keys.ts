import { pipe } from 'fp-ts/lib/function.js'
import * as TE from 'fp-ts/lib/TaskEither.js'
import type { Db } from 'mongodb'
import type { ApiKeyRegistry, Scope, StoredKey } from '../../core/index.js'
import { withDeadline } from './deadline.js'
import { fromDriver } from './store-failure.js'

/** The collection of minted API keys. */
export const API_KEYS_COLLECTION = 'api_keys'

type KeyDocument = {
  _id: string
  digest: string
  label: string
  scopes: Scope[]
  createdAt: Date
  expiresAt: Date | null
  revokedAt: Date | null
}

const ms = (d: Date | null): number | null => (d === null ? null : d.getTime())
const date = (n: number | null): Date | null => (n === null ? null : new Date(n))

/**
 * Minted keys in a collection, digests only, with a unique index on the digest. The index is
 * made when a key is added (the CLI), so the service itself only ever reads the collection,
 * within `timeoutMs` like a store call (deadline.ts).
 */
export const createMongoApiKeyRegistry = (
  db: Db,
  options: { readonly timeoutMs?: number } = {},
): ApiKeyRegistry => {
  const keys = db.collection<KeyDocument>(API_KEYS_COLLECTION)
  const timeoutMs = options.timeoutMs ?? 2000
  return {
    // Bounded like any store call: requests wait for this read once the cached keys are old.
    listKeys: () =>
      pipe(
        fromDriver(() =>
          withDeadline(timeoutMs, (deadline) =>
            keys.find({}, { maxTimeMS: deadline.check() }).toArray(),
          ),
        ),
        TE.map((docs) =>
          docs.map((d): StoredKey => ({
            id: d._id,
            digest: d.digest,
            label: d.label,
            scopes: d.scopes,
            createdAt: d.createdAt.getTime(),
            expiresAt: ms(d.expiresAt),
            revokedAt: ms(d.revokedAt),
          })),
        ),
      ),
    addKey: (key) =>
      fromDriver(async () => {
        await keys.createIndex({ digest: 1 }, { unique: true, name: 'digest_1' })
        await keys.insertOne({
          _id: key.id,
          digest: key.digest,
          label: key.label,
          scopes: [...key.scopes],
          createdAt: new Date(key.createdAt),
          expiresAt: date(key.expiresAt),
          revokedAt: date(key.revokedAt),
        })
      }),
    revokeKey: (id, at) =>
      fromDriver(async () => {
        await keys.updateOne({ _id: id, revokedAt: null }, { $set: { revokedAt: new Date(at) } })
        return (await keys.countDocuments({ _id: id }, { limit: 1 })) > 0
      }),
  }
}
