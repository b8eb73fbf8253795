import type * as O from 'fp-ts/lib/Option.js'
import type * as TE from 'fp-ts/lib/TaskEither.js'
import type { ShuttingDown, StoreFull, StoreUnavailable, UnreadablePet } from '../domain/errors.js'
import type { NewPet } from '../domain/new-pet.js'
import type { Pet, PetId } from '../domain/pet.js'
import type { PetStatus } from '../domain/pet-status.js'

/**
 * Pets with an id above `after` (all when absent), in ascending id order, at most `limit`. An
 * absent filter may also come as a key holding undefined (see ListPetsQuery).
 */
export type PetPageRequest = {
  readonly status?: PetStatus | undefined
  readonly after?: PetId | undefined
  readonly limit: number
}

/**
 * Stores the pet under a new, never reused id and returns it as stored; a bounded store may be full.
 * With an `op` (an operation id, unique per idempotent create) it stores at most once per op, even
 * under concurrent or retried calls: when a pet was already stored with this op, it returns that
 * pet and stores none.
 */
export type InsertPet = (
  pet: NewPet,
  op?: string,
) => TE.TaskEither<StoreUnavailable | StoreFull, Pet>
/**
 * The pet with this id, or none; `UnreadablePet` when the store holds one this version cannot
 * read (a store whose pets are always readable never answers it).
 */
export type FindPet = (id: PetId) => TE.TaskEither<StoreUnavailable | UnreadablePet, O.Option<Pet>>
/**
 * One page of pets, as {@link PetPageRequest} describes. A stored pet this version cannot read
 * is left out of the page (and reported by the store to its operator), never fails the page:
 * the page still holds `limit` readable pets when that many follow.
 */
export type ListPetPage = (
  request: PetPageRequest,
) => TE.TaskEither<StoreUnavailable, ReadonlyArray<Pet>>

/** What a store reports when it leaves out or refuses a stored pet it cannot read. */
export type OnUnreadablePet = (pet: UnreadablePet) => void

/** The storage port. Each use case names only the slice of it that it needs. */
export type PetStore = {
  readonly insertPet: InsertPet
  readonly findPet: FindPet
  readonly listPetPage: ListPetPage
}

/**
 * Whether the service can serve requests now (a readiness probe asks this): the store answers,
 * and the service is not stopping.
 */
export type CheckReadiness = () => TE.TaskEither<StoreUnavailable | ShuttingDown, void>
