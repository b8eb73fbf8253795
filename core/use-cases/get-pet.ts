import { pipe } from 'fp-ts/lib/function.js'
import * as TE from 'fp-ts/lib/TaskEither.js'
import { decodeWith } from '../domain/decode.js'
import {
  petNotFound,
  type InvalidInput,
  type PetNotFound,
  type StoreUnavailable,
} from '../domain/errors.js'
import { PetIdParam, type Pet } from '../domain/pet.js'
import type { PetStore } from '../ports/pet-store.js'

export type GetPetDeps = Pick<PetStore, 'findPet'>

const decodePetId = decodeWith(PetIdParam, 'petId')

/**
 * Reads one animal by id (a bigint, an exact integer or a digit string).
 * @deprecated Removed from the HTTP interface on 2030-12-05; list with a status filter instead.
 */
export const getPet =
  (deps: GetPetDeps) =>
  (petId: unknown): TE.TaskEither<InvalidInput | PetNotFound | StoreUnavailable, Pet> =>
    pipe(
      TE.fromEither(decodePetId(petId)),
      TE.chainW((id) => pipe(deps.findPet(id), TE.chainW(TE.fromOption(() => petNotFound(id))))),
    )
