import { randomUUID } from 'node:crypto'
import * as E from 'fp-ts/lib/Either.js'
import * as O from 'fp-ts/lib/Option.js'
import { pipe } from 'fp-ts/lib/function.js'
import * as TE from 'fp-ts/lib/TaskEither.js'
import type { Collection, Db, Filter } from 'mongodb'
import {
  identifiersExhausted,
  type NewPet,
  type OnUnreadablePet,
  type Pet,
  type PetId,
  type PetPageRequest,
  type PetStore,
  type StoreFull,
  type StoreUnavailable,
  type UnreadablePet,
} from '../../core/index.js'
import { withDeadline, type Deadline } from './deadline.js'
import { fromDocument, type PetDocument } from './documents.js'
import { createCallQueue } from './call-queue.js'
import {
  createIdAllocator,
  IdentifiersExhausted,
  type BlockDocument,
  type CounterDocument,
} from './ids.js'
import { createGroupInsert } from './group-insert.js'
import { driverFailure, fromDriver } from './store-failure.js'

/** The collection of pets. */
export const PETS = 'pets'
/** The collection holding the highest id handed out. */
export const COUNTERS = 'counters'
/** The collection of id blocks claimed by running instances. */
export const ID_BLOCKS = 'id_blocks'
/**
 * Inserts in flight at once per instance (group-insert.ts): the creates that arrive meanwhile go
 * together in the next one. More writers per instance only queue behind one another in the
 * server (bench/HISTORY.md, "Grouped inserts on MongoDB").
 */
export const DEFAULT_WRITERS = 1
/** Creates in one insert at most: small documents, far below the 100,000 writes of a batch. */
export const MAX_GROUP = 500
const PROJECTION = { _op: 0, _idem: 0, _v: 0 } as const

/** The budget and concurrency of the MongoDB pet store; the defaults suit production. */
export type MongoPetStoreOptions = {
  /** The budget of one store call, retries included (STORE_TIMEOUT_MS). */
  readonly timeoutMs?: number
  /** Store calls at the database at once; the rest wait, in order, within their deadline. */
  readonly maxConcurrent?: number
  /** Ids per claimed block (hi/lo); the default suits production. */
  readonly idBlockSize?: bigint
  /** Inserts in flight at once; the creates arriving meanwhile are inserted together. */
  readonly writers?: number
  /**
   * Told of each stored pet this version cannot read, as a listing leaves it out or a find
   * refuses it: the service logs it and counts it. Nothing by default.
   */
  readonly onUnreadablePet?: OnUnreadablePet
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
 * are not. Creates are inserted in groups (group-insert.ts). Every call ends within
 * `timeoutMs`, whatever it retries (see deadline.ts).
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
  const callQueue = createCallQueue(options.maxConcurrent ?? 8)
  const bounded = <A>(run: (deadline: Deadline) => Promise<A>) =>
    fromDriver(() =>
      withDeadline(timeoutMs, (deadline) => callQueue.through(deadline, () => run(deadline))),
    )

  /**
   * The pet stored by an earlier create with this caller's op, if any: a keyed create whose
   * insert the unique `_idem` index refused gets that pet. Only a keyed create pays this read,
   * and only on a collision.
   */
  const storedFor = async (op: string, maxTimeMS: number): Promise<Pet | undefined> => {
    const earlier = await pets.findOne({ _idem: op }, { projection: PROJECTION, maxTimeMS })
    if (earlier === null) return undefined
    const read = fromDocument(earlier)
    return E.isRight(read) ? read.right : corrupt(earlier)
  }

  const insertGrouped = createGroupInsert({
    pets,
    ids,
    callQueue,
    storedFor,
    inFlight: options.writers ?? DEFAULT_WRITERS,
    maxGroup: MAX_GROUP,
  })

  /**
   * Not through `bounded`: the group insert takes its place in the call queue once per group. An id
   * space used up is StoreFull (retrying cannot help), anything else StoreUnavailable.
   */
  const insertPet = (pet: NewPet, callerOp?: string) =>
    TE.tryCatch(
      () =>
        withDeadline(timeoutMs, (deadline) =>
          insertGrouped(pet, callerOp ?? randomUUID(), callerOp !== undefined, deadline),
        ),
      (error): StoreUnavailable | StoreFull =>
        error instanceof IdentifiersExhausted ? identifiersExhausted : driverFailure(error),
    )

  const onUnreadablePet = options.onUnreadablePet ?? (() => {})
  const readable = (doc: PetDocument): E.Either<UnreadablePet, Pet> => {
    const read = fromDocument(doc)
    if (E.isLeft(read)) onUnreadablePet(read.left)
    return read
  }

  const findPet = (id: PetId) =>
    pipe(
      bounded((deadline) =>
        pets.findOne({ _id: id }, { projection: PROJECTION, maxTimeMS: deadline.check() }),
      ),
      TE.chainEitherKW((doc) =>
        doc === null ? E.right(O.none) : E.map((pet: Pet) => O.some(pet))(readable(doc)),
      ),
    )

  /**
   * Equality on status, range and sort on _id: served in order by the {status, _id} index. A
   * pet that cannot be read is left out and the page filled from the pets after it, so one
   * document never shortens a page (which would end the listing early) nor fails it.
   */
  const listPetPage = ({ status, after, limit }: PetPageRequest) =>
    bounded(async (deadline) => {
      const page: Pet[] = []
      let from = after
      for (;;) {
        const wanted = limit - page.length
        const filter: Filter<PetDocument> = {
          ...(status === undefined ? {} : { status }),
          ...(from === undefined ? {} : { _id: { $gt: from } }),
        }
        const docs = await pets
          .find(filter, { projection: PROJECTION, maxTimeMS: deadline.check() })
          .sort({ _id: 1 })
          .limit(wanted)
          .toArray()
        for (const doc of docs) {
          const read = readable(doc)
          if (E.isRight(read)) page.push(read.right)
        }
        const last = docs.at(-1)
        if (docs.length < wanted || page.length === limit || last === undefined) return page
        from = last._id as PetId
      }
    })

  return { insertPet, findPet, listPetPage }
}
