import * as E from 'fp-ts/lib/Either.js'
import * as TE from 'fp-ts/lib/TaskEither.js'
import { decodeWith } from '../domain/decode.js'
import type { InvalidInput, StoreFull, StoreUnavailable } from '../domain/errors.js'
import type { InputOf } from '../domain/input.js'
import { NewPet } from '../domain/new-pet.js'
import type { Pet } from '../domain/pet.js'
import type { PetStore } from '../ports/pet-store.js'

/** What {@link createPet} needs: the store's insert. */
export type CreatePetDeps = Pick<PetStore, 'insertPet'>

const decodeNewPet = decodeWith(NewPet, 'body')

/** What {@link createPet} takes: a NewPet's fields, `categoryId` a bigint (or an exact number). */
export type NewPetInput = InputOf<NewPet>

/**
 * {@link createPet} for input of unknown shape, such as a parsed request body: the same
 * validation, which names each bad or unknown field.
 */
export const createPetFromUnknown =
  (deps: CreatePetDeps) =>
  (input: unknown): TE.TaskEither<InvalidInput | StoreUnavailable | StoreFull, Pet> => {
    const pet = decodeNewPet(input)
    return E.isLeft(pet) ? TE.left(pet.left) : deps.insertPet(pet.right)
  }

/**
 * Adds an animal: validates the input, then stores it under a fresh id. The compiler checks the
 * fields' names and kinds; their values are checked at run time all the same
 * ({@link createPetFromUnknown} takes input of unknown shape).
 *
 * @example
 * ```ts
 * import { createPet } from 'animal-store'
 * import { createInMemoryPetStore } from 'animal-store/in-memory'
 *
 * const store = createInMemoryPetStore()
 * const created = await createPet(store)({ name: 'Rex', categoryId: 7n, status: 'available' })()
 * if (created._tag === 'Left') throw new Error(created.left._tag) // InvalidInput names each field
 * console.log(created.right.id) // 1n: ids are exact bigints
 * ```
 */
export const createPet = (
  deps: CreatePetDeps,
): ((input: NewPetInput) => TE.TaskEither<InvalidInput | StoreUnavailable | StoreFull, Pet>) =>
  createPetFromUnknown(deps)
