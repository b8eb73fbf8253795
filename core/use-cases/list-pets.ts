import * as E from 'fp-ts/lib/Either.js'
import * as O from 'fp-ts/lib/Option.js'
import * as TE from 'fp-ts/lib/TaskEither.js'
import { decodeWith } from '../domain/decode.js'
import type { InvalidInput, StoreUnavailable } from '../domain/errors.js'
import type { InputOf } from '../domain/input.js'
import {
  LIST_LIMITS,
  listPetsQueryCodec,
  type ListLimits,
  type ListPetsQuery,
  type ListPetsQueryDecoded,
} from '../domain/list-query.js'
import type { Pet } from '../domain/pet.js'
import type { PetStore } from '../ports/pet-store.js'

/** What {@link listPets} needs: the store's page listing, and the page sizes allowed. */
export type ListPetsDeps = Pick<PetStore, 'listPetPage'> & {
  /** The interface's ({@link LIST_LIMITS}) when absent. */
  readonly listLimits?: ListLimits
}

/** One page of a listing, and the query that continues it when more pets exist. */
export type PetPage = { readonly pets: ReadonlyArray<Pet>; readonly next: O.Option<ListPetsQuery> }

/** Asks for one pet more than the page holds: whether it exists decides if there is a next page. */
const toPage = (query: ListPetsQuery, found: ReadonlyArray<Pet>): PetPage => {
  if (found.length <= query.limit) return { pets: found, next: O.none }
  const pets = found.slice(0, query.limit)
  const last = pets[pets.length - 1] as Pet
  return { pets, next: O.some({ limit: query.limit, status: query.status, after: last.id }) }
}

/** What {@link listPets} takes: `limit`, `status`, and `after` a bigint (or an exact number). */
export type ListPetsInput = InputOf<ListPetsQueryDecoded>

/**
 * {@link listPets} for a query of unknown shape, such as a request's parameters (digit strings
 * there): the same validation, which names each bad or unknown parameter.
 */
export const listPetsFromUnknown = (deps: ListPetsDeps) => {
  const limits = deps.listLimits ?? LIST_LIMITS
  const decodeQuery = decodeWith(listPetsQueryCodec(limits), 'query')
  return (input: unknown = {}): TE.TaskEither<InvalidInput | StoreUnavailable, PetPage> => {
    // Written out rather than piped: one promise per call on a hot path (see get-pet.ts).
    const params = decodeQuery(input)
    if (E.isLeft(params)) return TE.left(params.left)
    // Field by field, not spread: see ListPetsQuery.
    const { status, after } = params.right
    const query: ListPetsQuery = { limit: params.right.limit ?? limits.default, status, after }
    const list = deps.listPetPage({ limit: query.limit + 1, status, after })
    return () =>
      list().then((found) => (E.isLeft(found) ? found : E.right(toPage(query, found.right))))
  }
}

/**
 * Lists animals in ascending id order, optionally by status, `limit` at a time. The compiler
 * checks the query's names and kinds; their values are checked at run time all the same
 * ({@link listPetsFromUnknown} takes a query of unknown shape).
 */
export const listPets = (
  deps: ListPetsDeps,
): ((input?: ListPetsInput) => TE.TaskEither<InvalidInput | StoreUnavailable, PetPage>) =>
  listPetsFromUnknown(deps)
