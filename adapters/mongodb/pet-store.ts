import { randomUUID } from 'node:crypto'
import * as O from 'fp-ts/lib/Option.js'
import type { Collection, Db, Filter } from 'mongodb'
import type { NewPet, Pet, PetPageRequest, PetStore } from '../../core/index.js'
import { withDeadline, type Deadline } from './deadline.js'
import { fromDocument, toDocument, toKeyedDocument, type PetDocument } from './documents.js'
import { createGate } from './gate.js'
import { createIdAllocator, type BlockDocument, type CounterDocument } from './ids.js'
import { fromDriver, isDuplicateKey } from './store-failure.js'

export const PETS = 'pets'
export const COUNTERS = 'counters'
export const ID_BLOCKS = 'id_blocks'
/** How many ids one create tries at most (each failure means another writer holds that id). */
const MAX_ATTEMPTS = 8
/** Collisions of one create after which the counter is taken to be behind the ids in use. */
const CATCH_UP_AFTER = 3
const PROJECTION = { _op: 0, _idem: 0 } as const

export type MongoPetStoreOptions = {
  /** The budget of one store call, retries included (STORE_TIMEOUT_MS). */
  readonly timeoutMs?: number
  /** Store calls at the database at once; the rest wait, in order, within their deadline. */
  readonly maxConcurrent?: number
  /** Ids per claimed block (hi/lo); the default suits production. */
  readonly idBlockSize?: bigint
}

const corrupt = (doc: unknown): never => {
  throw new Error(
    `stored pet document does not decode: ${JSON.stringify(doc, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v))}`,
  )
}

/**
 * The PetStore port on MongoDB. Ids come in blocks claimed per instance (ids.ts), and the unique
 * `_id` index is what makes them correct: an id that another writer also got fails the insert
 * with a duplicate key, and the create retries with the next one. Gaps are possible, duplicates
 * are not. Every call ends within `timeoutMs`, whatever it retries (see deadline.ts).
 */
export const createMongoPetStore = (db: Db, options: MongoPetStoreOptions = {}): PetStore => {
  const timeoutMs = options.timeoutMs ?? 2000
  const pets: Collection<PetDocument> = db.collection(PETS)
  const counters: Collection<CounterDocument> = db.collection(COUNTERS)
  const blocks: Collection<BlockDocument> = db.collection(ID_BLOCKS)
  const ids = createIdAllocator(
    { counters, blocks, pets },
    {
      maxTimeMS: timeoutMs,
      ...(options.idBlockSize === undefined ? {} : { blockSize: options.idBlockSize }),
    },
  )
  const gate = createGate(options.maxConcurrent ?? 8)
  const bounded = <A>(run: (deadline: Deadline) => Promise<A>) =>
    fromDriver(() =>
      withDeadline(timeoutMs, (deadline) => gate.through(deadline, () => run(deadline))),
    )

  /**
   * The pet when stored under `id`; undefined when another writer holds that id. A duplicate
   * `_id` is never our own earlier attempt: each attempt takes a fresh id, and a driver retry of
   * this insert (retryable writes) is recognised by the server, which answers it with the first
   * result. A keyed create (`keyed`) whose op is stored already gets that earlier pet instead.
   */
  const insertAs = async (
    pet: NewPet,
    id: bigint,
    op: string,
    keyed: boolean,
    deadline: Deadline,
  ): Promise<Pet | undefined> => {
    try {
      const doc = keyed ? toKeyedDocument(pet, id, op) : toDocument(pet, id, op)
      await pets.insertOne(doc, { maxTimeMS: deadline.check() })
      return { ...pet, id } as Pet
    } catch (error) {
      if (!isDuplicateKey(error)) throw error
    }
    if (!keyed) return undefined
    // A caller's op may be stored already (the unique `_idem` index refused it): that pet is the
    // answer. Only a keyed create pays this read, and only on a collision.
    const earlier = await pets.findOne(
      { _idem: op },
      { projection: PROJECTION, maxTimeMS: deadline.check() },
    )
    return earlier === null ? undefined : (fromDocument(earlier) ?? corrupt(earlier))
  }

  const insertPet = (pet: NewPet, callerOp?: string) =>
    bounded(async (deadline) => {
      const op = callerOp ?? randomUUID()
      for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
        deadline.check()
        const id = await ids.next()
        const stored = await insertAs(pet, id, op, callerOp !== undefined, deadline)
        if (stored !== undefined) return stored
        deadline.check()
        await ids.collided(id, attempt >= CATCH_UP_AFTER)
      }
      throw new Error(`no free id after ${MAX_ATTEMPTS} attempts`)
    })

  const findPet = (id: bigint) =>
    bounded(async (deadline) => {
      const doc = await pets.findOne(
        { _id: id },
        { projection: PROJECTION, maxTimeMS: deadline.check() },
      )
      return doc === null ? O.none : O.some(fromDocument(doc) ?? corrupt(doc))
    })

  /** Equality on status, range and sort on _id: served in order by the {status, _id} index. */
  const listPetPage = ({ status, after, limit }: PetPageRequest) =>
    bounded(async (deadline) => {
      const filter: Filter<PetDocument> = {
        ...(status === undefined ? {} : { status }),
        ...(after === undefined ? {} : { _id: { $gt: after } }),
      }
      const docs = await pets
        .find(filter, { projection: PROJECTION, maxTimeMS: deadline.check() })
        .sort({ _id: 1 })
        .limit(limit)
        .toArray()
      return docs.map((doc) => fromDocument(doc) ?? corrupt(doc))
    })

  return { insertPet, findPet, listPetPage }
}
