import { isRight } from 'fp-ts/lib/Either.js'
import { Pet, type NewPet } from '../../core/index.js'

/**
 * A pet as stored: its id is the document's `_id` (so the primary key index is the id index),
 * every other field of the Pet under its own name, ids as BSON Long (bigint in, bigint out with
 * `useBigInt64`), and `_op`, the id of the request that inserted it, which tells a retried
 * insert that already landed from a collision. The fields are spread rather than listed, so a
 * field added to the Pet codecs is stored and read back with no change here.
 *
 * `_idem` is set only by a create that sent an Idempotency-Key: the op of that key, unique
 * through a sparse unique index (indexes.ts). It is a field of its own rather than `_op`, whose
 * values older data (and the load runner's seed) may repeat, so the index can always be built,
 * and a create without a key carries no entry in it.
 */
export type PetDocument = Omit<Pet, 'id'> & {
  readonly _id: bigint
  readonly _op: string
  readonly _idem?: string
}

export const toDocument = (pet: NewPet, id: bigint, op: string): PetDocument => ({
  _id: id,
  ...pet,
  _op: op,
})

/** The document of a create with an Idempotency-Key: one pet per key's op, whatever the timing. */
export const toKeyedDocument = (pet: NewPet, id: bigint, op: string): PetDocument => ({
  _id: id,
  ...pet,
  _op: op,
  _idem: op,
})

/** Reads a stored document back through the Pet codec: a document nobody could have written is refused. */
export const fromDocument = (doc: Omit<PetDocument, '_op' | '_idem'>): Pet | undefined => {
  const { _id, ...fields } = doc
  const decoded = Pet.decode({ id: _id, ...fields })
  return isRight(decoded) ? decoded.right : undefined
}
