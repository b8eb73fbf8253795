import type { Db } from 'mongodb'
import { PETS } from './pet-store.js'

/**
 * Every access path has an index: `_id` (unique, built in) for get-by-id and the unfiltered
 * listing, `{status, _id}` for the filtered listing (equality, then range and sort on _id).
 * createIndexes is idempotent, so every instance runs it at start.
 */
export const PET_INDEXES = [{ key: { status: 1, _id: 1 }, name: 'status_1__id_1' }] as const

export const ensureIndexes = async (db: Db): Promise<void> => {
  await db
    .collection(PETS)
    .createIndexes(PET_INDEXES.map((index) => ({ ...index, key: { ...index.key } })))
}
