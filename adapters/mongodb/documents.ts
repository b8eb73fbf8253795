import { isRight } from 'fp-ts/lib/Either.js'
import { Pet, type NewPet } from '../../core/index.js'

/**
 * A pet as stored: its id is the document's `_id` (so the primary key index is the id index),
 * ids are BSON Long (bigint in, bigint out with `useBigInt64`), and `_op` is the id of the
 * request that inserted it, which tells a retried insert that already landed from a collision.
 */
export type PetDocument = {
  readonly _id: bigint
  readonly name: string
  readonly categoryId: bigint
  readonly status?: string
  readonly _op: string
}

export const toDocument = (pet: NewPet, id: bigint, op: string): PetDocument => ({
  _id: id,
  name: pet.name,
  categoryId: pet.categoryId,
  ...(pet.status === undefined ? {} : { status: pet.status }),
  _op: op,
})

/** Reads a stored document back through the Pet codec: a document nobody could have written is refused. */
export const fromDocument = (doc: Omit<PetDocument, '_op'>): Pet | undefined => {
  const decoded = Pet.decode({
    id: doc._id,
    name: doc.name,
    categoryId: doc.categoryId,
    ...(doc.status === undefined ? {} : { status: doc.status }),
  })
  return isRight(decoded) ? decoded.right : undefined
}
