import type { Db } from 'mongodb'
import { ensureIdempotencyIndexes } from './idempotency-indexes.js'
import { PETS } from './pet-store.js'

/**
 * Every access path has an index: `_id` (unique, built in) for get-by-id and the unfiltered
 * listing, `{status, _id}` for the filtered listing (equality, then range and sort on _id).
 * createIndexes is idempotent, so every instance runs it at start.
 */
export const PET_INDEXES = [
  { key: { status: 1, _id: 1 }, name: 'status_1__id_1' },
  // One pet per op, whatever the timing: what makes an idempotent create exactly-once.
  { key: { _op: 1 }, name: '_op_1', unique: true },
] as const

export const ensureIndexes = async (db: Db): Promise<void> => {
  const pets = db.collection(PETS)
  // Only the missing ones: FerretDB v1 drops the connection when a unique index is created again.
  const have = new Set(
    (
      await pets
        .listIndexes()
        .toArray()
        .catch(() => [])
    ).map((index) => String(index.name)),
  )
  const missing = PET_INDEXES.filter((index) => !have.has(index.name))
  if (missing.length > 0)
    await pets.createIndexes(missing.map((index) => ({ ...index, key: { ...index.key } })))
  await ensureIdempotencyIndexes(db)
}
