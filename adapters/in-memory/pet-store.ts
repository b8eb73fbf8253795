import * as O from 'fp-ts/lib/Option.js'
import * as TE from 'fp-ts/lib/TaskEither.js'
import {
  identifiersExhausted,
  INT64_MAX,
  storeFull,
  type NewPet,
  type OnUnreadablePet,
  type Pet,
  type PetId,
  type PetPageRequest,
  type PetStatus,
  type PetStore,
  type UnreadablePet,
} from '../../core/index.js'
import { readStoredRecords } from './stored-records.js'

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
  /**
   * Pets to start with, as a store of any version wrote them (each with its `id`), say from a
   * snapshot: read as MongoDB's documents are, so a field this version does not know is dropped
   * and a name is taken as stored. One that cannot be read is left out of every page, and a find
   * of its id answers `UnreadablePet`. New pets get ids above the highest.
   */
  readonly records?: ReadonlyArray<Readonly<Record<string, unknown>>> | undefined
  /** Told of each record that cannot be read, when the store starts and on each find of it. */
  readonly onUnreadablePet?: OnUnreadablePet | undefined
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
   * The pet with id base + n at index n - 1 (ids are handed out base + 1, base + 2…): a lookup in
   * O(1). A removal would leave undefined at its index, so `all` can lose pets without moving
   * any lookup.
   */
  const byId: Array<Pet | undefined> = []
  const byStatus = new Map<PetStatus, Pet[]>()
  /** Pets inserted with an op, by op: an op is stored at most once. */
  const byOp = new Map<string, Pet>()
  const place = (pet: Pet) => {
    all.push(pet)
    if (pet.status === undefined) return
    const list = byStatus.get(pet.status) ?? []
    list.push(pet)
    byStatus.set(pet.status, list)
  }
  const report = options.onUnreadablePet ?? (() => {})
  const records = readStoredRecords(options.records ?? [], report)
  records.pets.forEach(place)
  const recorded = new Map(records.pets.map((pet) => [pet.id, pet]))
  /** The highest id of the records: ids handed out here are above it. */
  const base = records.lastId
  let lastId = base

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
    place(pet)
    byId.push(pet)
    if (op !== undefined) byOp.set(op, pet)
    return TE.right<never, Pet>(pet)
  }

  const listPetPage = ({ status, after, limit }: PetPageRequest) => {
    const pets = status === undefined ? all : (byStatus.get(status) ?? [])
    const start = after === undefined ? 0 : firstAfter(pets, after)
    return TE.right<never, ReadonlyArray<Pet>>(pets.slice(start, start + limit))
  }

  /** A pet of the records: readable, unreadable (reported again), or none. */
  const findRecorded = (id: PetId): TE.TaskEither<UnreadablePet, O.Option<Pet>> => {
    const unreadable = records.unreadable.get(String(id))
    if (unreadable === undefined) return TE.right(O.fromNullable(recorded.get(id)))
    report(unreadable)
    return TE.left(unreadable)
  }

  return {
    insertPet,
    // An index, not a Map by id: a Map keyed by bigints rehashes as it grows (bench/HISTORY.md).
    findPet: (id) =>
      id > base
        ? TE.right(O.fromNullable(id <= lastId ? byId[Number(id - base) - 1] : undefined))
        : findRecorded(id),
    listPetPage,
  }
}
