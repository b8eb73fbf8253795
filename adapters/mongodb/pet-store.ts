import { randomUUID } from 'node:crypto'
import * as O from 'fp-ts/lib/Option.js'
import type { Collection, Db, Filter } from 'mongodb'
import type { NewPet, Pet, PetPageRequest, PetStore } from '../../core/index.js'
import { fromDocument, toDocument, type PetDocument } from './documents.js'
import { createIdAllocator, type CounterDocument } from './ids.js'
import { fromDriver, isDuplicateKey } from './store-failure.js'

export const PETS = 'pets'
export const COUNTERS = 'counters'
/** How many fresh ids one create tries before it gives up (each failure means another writer won). */
const MAX_ATTEMPTS = 8
const PROJECTION = { _op: 0 } as const

const corrupt = (doc: unknown): never => {
  throw new Error(
    `stored pet document does not decode: ${JSON.stringify(doc, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v))}`,
  )
}

/**
 * The PetStore port on MongoDB. Ids come from a counter, and the unique `_id` index is what
 * makes them correct: a counter value that another writer also got (FerretDB's non-atomic
 * findAndModify, or a counter update rolled back by a failover) fails the insert with a
 * duplicate key, and the create retries with a new id. Gaps are possible, duplicates are not.
 */
export const createMongoPetStore = (db: Db): PetStore => {
  const pets: Collection<PetDocument> = db.collection(PETS)
  const counters: Collection<CounterDocument> = db.collection(COUNTERS)
  const allocateId = createIdAllocator(counters, pets)

  const insertOnce = async (pet: NewPet, op: string, retry: boolean): Promise<Pet | undefined> => {
    const id = await allocateId({ catchUp: retry })
    try {
      await pets.insertOne(toDocument(pet, id, op))
    } catch (error) {
      if (!isDuplicateKey(error)) throw error
      // Our own earlier attempt may have landed before its acknowledgement was lost.
      const existing = await pets.findOne({ _id: id })
      if (existing?._op !== op) return undefined
    }
    return { ...pet, id } as Pet
  }

  const insertPet = (pet: NewPet) =>
    fromDriver(async () => {
      const op = randomUUID()
      for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
        const stored = await insertOnce(pet, op, attempt > 0)
        if (stored !== undefined) return stored
      }
      throw new Error(`no free id after ${MAX_ATTEMPTS} attempts`)
    })

  const findPet = (id: bigint) =>
    fromDriver(async () => {
      const doc = await pets.findOne({ _id: id }, { projection: PROJECTION })
      return doc === null ? O.none : O.some(fromDocument(doc) ?? corrupt(doc))
    })

  /** Equality on status, range and sort on _id: served in order by the {status, _id} index. */
  const listPetPage = ({ status, after, limit }: PetPageRequest) =>
    fromDriver(async () => {
      const filter: Filter<PetDocument> = {
        ...(status === undefined ? {} : { status }),
        ...(after === undefined ? {} : { _id: { $gt: after } }),
      }
      const docs = await pets
        .find(filter, { projection: PROJECTION })
        .sort({ _id: 1 })
        .limit(limit)
        .toArray()
      return docs.map((doc) => fromDocument(doc) ?? corrupt(doc))
    })

  return { insertPet, findPet, listPetPage }
}
