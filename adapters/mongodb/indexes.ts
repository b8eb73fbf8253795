import type { Db } from 'mongodb'
import { ensureIdempotencyIndexes } from './idempotency-indexes.js'
import { ensureIndex, indexNames, type IndexSpec } from './index-build.js'
import { PETS } from './pet-store.js'

/**
 * The secondary indexes of the pets; `_id` is indexed by MongoDB itself, which serves the
 * listing, `{status, _id}` for the filtered listing (equality, then range and sort on _id).
 *
 * `_idem_1` makes an idempotent create exactly-once: one pet per Idempotency-Key op, whatever
 * the timing. Only keyed creates set `_idem`, and the index is sparse, so documents without it
 * (every keyless create, and any older data) have no entry and can never make the build fail.
 * (FerretDB v1 ignores `sparse` but indexes a missing field as SQL NULL, which a unique index
 * never counts as a duplicate; a partial index would do on MongoDB but FerretDB v1 refuses
 * `partialFilterExpression`.)
 */
export const PET_INDEXES: ReadonlyArray<IndexSpec> = [
  { key: { status: 1, _id: 1 }, name: 'status_1__id_1' },
  { key: { _idem: 1 }, name: '_idem_1', unique: true, sparse: true },
]

/** Every instance runs this at start: it creates what is missing and tolerates a sibling's build. */
export const ensureIndexes = async (db: Db): Promise<void> => {
  const pets = db.collection(PETS)
  const existing = await indexNames(pets)
  for (const spec of PET_INDEXES) await ensureIndex(pets, spec, existing)
  await ensureIdempotencyIndexes(db)
}
