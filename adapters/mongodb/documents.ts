import * as E from 'fp-ts/lib/Either.js'
import {
  decodeWith,
  Pet,
  unreadablePet,
  type InvalidInput,
  type NewPet,
  type UnreadablePet,
} from '../../core/index.js'

/**
 * A pet as stored: its id is the document's `_id` (so the primary key index is the id index),
 * every other field of the Pet under its own name, ids as BSON Long (bigint in, bigint out with
 * `useBigInt64`), and `_op`, the id of the request that inserted it, which tells a retried
 * insert that already landed from a collision. The fields are spread rather than listed, so a
 * field added to the Pet codecs is stored and read back with no change here.
 *
 * Nothing else is written, `_v` included: 2.0.0 reads a pet strictly (only `_op` and `_idem`
 * projected out), so a field it does not know would make every pet this version stores a 503
 * on its instances during a rolling deploy, and after a rollback. This version ignores `_v` and
 * any field it does not know, so a later form may record `_v` once 2.0.0 is past.
 *
 * `_idem` is set only by a create that sent an Idempotency-Key: the op of that key, unique
 * through a sparse unique index (indexes.ts). It is a field of its own rather than `_op`, whose
 * values older data (and the load runner's seed) may repeat, so the index can always be built,
 * and a create without a key carries no entry in it.
 */
export type PetDocument = Omit<Pet, 'id'> & {
  readonly _id: bigint
  /** The form's version, as a later version may record it: read past, never written here. */
  readonly _v?: number
  readonly _op: string
  readonly _idem?: string
}

/**
 * The pet's fields that have a value: the driver writes an `undefined` one (a caller of the port
 * may pass `status: undefined`) as null, which no version reads as an absent field, so the pet
 * it accepted would never be served.
 */
const present = (pet: NewPet): NewPet =>
  Object.values(pet).includes(undefined)
    ? (Object.fromEntries(Object.entries(pet).filter(([, value]) => value !== undefined)) as NewPet)
    : pet

export const toDocument = (pet: NewPet, id: bigint, op: string): PetDocument => ({
  _id: id,
  ...present(pet),
  _op: op,
})

/** The document of a create with an Idempotency-Key: one pet per key's op, whatever the timing. */
export const toKeyedDocument = (pet: NewPet, id: bigint, op: string): PetDocument => ({
  ...toDocument(pet, id, op),
  _idem: op,
})

const decodePet = decodeWith(Pet, 'pet')

/**
 * Reads a stored document back through the Pet codec, which takes what any version wrote (a
 * field it does not know is dropped, the name as stored); a document no version could have
 * written (a field of the wrong type) is an UnreadablePet, never a pet made up. A null field is
 * an absent one: it is how the driver wrote a field given as undefined, 2.0.0 included.
 */
export const fromDocument = (doc: {
  readonly _id: unknown
  readonly [field: string]: unknown
}): E.Either<UnreadablePet, Pet> => {
  const { _id, ...stored } = doc
  const fields = Object.values(stored).includes(null)
    ? Object.fromEntries(Object.entries(stored).filter(([, value]) => value !== null))
    : stored
  return E.mapLeft(({ problems }: InvalidInput) => unreadablePet(String(_id), problems.join('; ')))(
    // The id is `_id`, always: a stored field named `id` (a pet imported from the API's JSON,
    // say) is one this version does not know, never the pet's id.
    decodePet({ ...fields, id: _id }),
  )
}
