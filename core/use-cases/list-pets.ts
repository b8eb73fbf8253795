import { pipe } from 'fp-ts/lib/function.js'
import * as O from 'fp-ts/lib/Option.js'
import * as TE from 'fp-ts/lib/TaskEither.js'
import { decodeWith } from '../domain/decode.js'
import type { InvalidInput, StoreUnavailable } from '../domain/errors.js'
import { LIMIT_DEFAULT, ListPetsQueryParams, type ListPetsQuery } from '../domain/list-query.js'
import type { Pet } from '../domain/pet.js'
import type { PetStore } from '../ports/pet-store.js'

export type ListPetsDeps = Pick<PetStore, 'listPetPage'>

/** One page of a listing, and the query that continues it when more pets exist. */
export type PetPage = { readonly pets: ReadonlyArray<Pet>; readonly next: O.Option<ListPetsQuery> }

const decodeQuery = decodeWith(ListPetsQueryParams, 'query')

/** Asks for one pet more than the page holds: whether it exists decides if there is a next page. */
const toPage = (query: ListPetsQuery, found: ReadonlyArray<Pet>): PetPage => {
  if (found.length <= query.limit) return { pets: found, next: O.none }
  const pets = found.slice(0, query.limit)
  const last = pets[pets.length - 1] as Pet
  return { pets, next: O.some({ ...query, after: last.id }) }
}

/** Lists animals in ascending id order, optionally by status, `limit` (default 20) at a time. */
export const listPets =
  (deps: ListPetsDeps) =>
  (input: unknown = {}): TE.TaskEither<InvalidInput | StoreUnavailable, PetPage> =>
    pipe(
      TE.fromEither(decodeQuery(input)),
      TE.map((params): ListPetsQuery => ({ ...params, limit: params.limit ?? LIMIT_DEFAULT })),
      TE.chainW((query) =>
        pipe(
          deps.listPetPage({ ...query, limit: query.limit + 1 }),
          TE.map((found) => toPage(query, found)),
        ),
      ),
    )
