// Typechecks with only the core's peers (fp-ts, io-ts) installed.
import * as TE from 'fp-ts/lib/TaskEither.js'
import { pipe } from 'fp-ts/lib/function.js'
import { createPet, type DomainError, type Pet, type PetStore } from 'animal-store'
import { createInMemoryPetStore } from 'animal-store/in-memory'
import { createClient, type ClientError } from 'animal-store/client'
import { writeNewPetJson } from 'animal-store'

const store: PetStore = createInMemoryPetStore()
export const created: TE.TaskEither<DomainError, Pet> = pipe(
  createPet(store)({ name: 'Rex', categoryId: 1n }),
  TE.map((pet) => pet),
)

// The client's failures narrow by code under strict settings, with only the core's peers.

export const explain = (error: ClientError): string => {
  switch (error.code) {
    case 'budget_exhausted':
      return `${error.attempts} attempts: ${explain(error.last)}`
    case 'network':
    case 'timeout':
    case 'aborted':
      return error.message
    case 'undecodable':
      return `${error.status}: ${error.message}`
    default:
      return `${error.code} (${error.status}): ${error.message}`
  }
}
export const body: string = writeNewPetJson({ name: 'Rex', categoryId: 1n })
export const client = createClient({ baseUrl: 'https://pets.example/v1', apiKey: 'k' })
