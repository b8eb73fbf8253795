import * as O from 'fp-ts/lib/Option.js'
import * as TE from 'fp-ts/lib/TaskEither.js'
import {
  identifiersExhausted,
  INT64_MAX,
  storeFull,
  type NewPet,
  type Pet,
  type PetId,
  type PetPageRequest,
  type PetStatus,
  type PetStore,
} from '../../core/index.js'

/** Index of the first pet whose id is above `after`, by binary search over ascending ids. */
const firstAfter = (pets: ReadonlyArray<Pet>, after: bigint): number => {
  let low = 0
  let high = pets.length
  while (low < high) {
    const mid = (low + high) >>> 1
    if ((pets[mid] as Pet).id <= after) low = mid + 1
    else high = mid
  }
  return low
}

/**
 * The default capacity. A million pets of the longest names, each made by a keyed create, need
 * gigabytes of heap: the service lowers it to what its heap holds (apps/server/heap-fit.ts
 * counts each pet at the worst case).
 */
export const IN_MEMORY_CAPACITY_DEFAULT = 1_000_000

/** How the in-memory pet store is bounded. */
export type InMemoryPetStoreOptions = {
  /**
   * How many pets it holds at most; past it a create answers `StoreFull`, never grows the heap.
   * A whole number from 0, or `Infinity` for no limit; anything else throws a RangeError.
   */
  readonly capacity?: number | undefined
}

/** The capacity asked for, or the default; a RangeError for one that is not a count. */
export const capacityOf = (options: { readonly capacity?: number | undefined }): number => {
  const capacity = options.capacity ?? IN_MEMORY_CAPACITY_DEFAULT
  // NaN or a negative number would compare false against every count: a store without a limit.
  if (!(capacity === Infinity || (Number.isInteger(capacity) && capacity >= 0)))
    throw new RangeError(`capacity must be a whole number from 0, or Infinity: got ${capacity}`)
  return capacity
}

/**
 * A process-local pet store. Ids are handed out in ascending order and pets never change,
 * so appending keeps every list sorted: a page is a binary search and a slice.
 */
export const createInMemoryPetStore = (options: InMemoryPetStoreOptions = {}): PetStore => {
  const capacity = capacityOf(options)
  /** Every pet by ascending id, for listing: a page is a binary search and a slice. */
  const all: Pet[] = []
  /**
   * The pet with id n at index n - 1 (ids are handed out 1, 2, 3…): a lookup in O(1). A removal
   * would leave undefined at its index, so `all` can lose pets without moving any lookup.
   */
  const byId: Array<Pet | undefined> = []
  const byStatus = new Map<PetStatus, Pet[]>()
  /** Pets inserted with an op, by op: an op is stored at most once. */
  const byOp = new Map<string, Pet>()
  let lastId = 0n

  const insertPet = (newPet: NewPet, op?: string) => {
    const earlier = op === undefined ? undefined : byOp.get(op)
    if (earlier !== undefined) return TE.right<never, Pet>(earlier)
    if (all.length >= capacity) return TE.left(storeFull(capacity))
    if (lastId >= INT64_MAX) return TE.left(identifiersExhausted)
    lastId += 1n
    // The id first: on Node 20 a spread followed by a new key takes V8's slow path (see
    // bench/HISTORY.md). Set again after, so that a stray `id` in an untyped caller's object
    // cannot replace the one assigned here.
    const pet: { -readonly [K in keyof Pet]: Pet[K] } = { id: lastId as PetId, ...newPet }
    pet.id = lastId as PetId
    all.push(pet)
    byId.push(pet)
    if (op !== undefined) byOp.set(op, pet)
    if (pet.status !== undefined) {
      const list = byStatus.get(pet.status) ?? []
      list.push(pet)
      byStatus.set(pet.status, list)
    }
    return TE.right<never, Pet>(pet)
  }

  const listPetPage = ({ status, after, limit }: PetPageRequest) => {
    const pets = status === undefined ? all : (byStatus.get(status) ?? [])
    const start = after === undefined ? 0 : firstAfter(pets, after)
    return TE.right<never, ReadonlyArray<Pet>>(pets.slice(start, start + limit))
  }

  return {
    insertPet,
    // An index, not a Map by id: a Map keyed by bigints rehashes as it grows (bench/HISTORY.md).
    findPet: (id) =>
      TE.right(O.fromNullable(id >= 1n && id <= lastId ? byId[Number(id) - 1] : undefined)),
    listPetPage,
  }
}
