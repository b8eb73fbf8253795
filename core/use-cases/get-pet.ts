import * as E from 'fp-ts/lib/Either.js'
import * as O from 'fp-ts/lib/Option.js'
import * as TE from 'fp-ts/lib/TaskEither.js'
import { decodeWith } from '../domain/decode.js'
import {
  petNotFound,
  type InvalidInput,
  type PetNotFound,
  type StoreUnavailable,
  type UnreadablePet,
} from '../domain/errors.js'
import { PetIdParam, type Pet } from '../domain/pet.js'
import type { PetStore } from '../ports/pet-store.js'

/** What {@link getPet} needs: the store's find. */
export type GetPetDeps = Pick<PetStore, 'findPet'>

const decodePetId = decodeWith(PetIdParam, 'petId')

/**
 * Reads one animal by id (a bigint, an exact integer or a digit string).
 * @deprecated Removed from the HTTP interface at its sunset; list with a status filter instead.
 */
export const getPet =
  (deps: GetPetDeps) =>
  (
    petId: unknown,
  ): TE.TaskEither<InvalidInput | PetNotFound | StoreUnavailable | UnreadablePet, Pet> => {
    // Written out with one `then`, rather than piped through TE.chainW (three promises a call)
    // or as an async function (two, and a turn of the microtask queue more): this is the
    // service's hottest path (measured against the bare ceiling; see bench/HISTORY.md).
    const id = decodePetId(petId)
    if (E.isLeft(id)) return TE.left(id.left)
    const find = deps.findPet(id.right)
    return () =>
      find().then((found) => {
        if (E.isLeft(found)) return found
        return O.isSome(found.right) ? E.right(found.right.value) : E.left(petNotFound(id.right))
      })
  }
