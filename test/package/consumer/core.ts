// Typechecks with only the core's peers (fp-ts, io-ts) installed.
import * as TE from 'fp-ts/lib/TaskEither.js'
import { pipe } from 'fp-ts/lib/function.js'
import { createPet, type DomainError, type Pet, type PetStore } from 'animal-store'
import { createInMemoryPetStore } from 'animal-store/in-memory'

const store: PetStore = createInMemoryPetStore()
export const created: TE.TaskEither<DomainError, Pet> = pipe(
  createPet(store)({ name: 'Rex', categoryId: 1n }),
  TE.map((pet) => pet),
)
