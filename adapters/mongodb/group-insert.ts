import type { Collection } from 'mongodb'
import type { NewPet, Pet } from '../../core/index.js'
import type { Deadline } from './deadline.js'
import { toDocument, toKeyedDocument, type PetDocument } from './documents.js'
import type { CallQueue } from './call-queue.js'
import type { IdAllocator } from './ids.js'
import { insertOutcomes } from './insert-outcomes.js'

/** How many ids one create tries at most (each failure means another writer holds that id). */
const MAX_ATTEMPTS = 8
/** Collisions of one create after which the counter is taken to be behind the ids in use. */
const CATCH_UP_AFTER = 3

type Waiting = {
  readonly pet: NewPet
  readonly op: string
  /** The op is the caller's (an Idempotency-Key's): at most one pet per op (`_idem`). */
  readonly keyed: boolean
  readonly deadline: Deadline
  attempts: number
  readonly resolve: (pet: Pet) => void
  readonly reject: (error: unknown) => void
}
type Sent = Waiting & { readonly id: bigint }

export type GroupInsertOptions = {
  readonly pets: Collection<PetDocument>
  readonly ids: IdAllocator
  readonly callQueue: CallQueue
  /** The pet already stored with a keyed create's op, if any. */
  readonly storedFor: (op: string, maxTimeMS: number) => Promise<Pet | undefined>
  /** Inserts in flight at once from this instance; creates arriving meanwhile wait and go together. */
  readonly inFlight: number
  /** Creates in one insert at most. */
  readonly maxGroup: number
}

/**
 * Group commit: creates that arrive while `inFlight` inserts are under way wait, and the next
 * free place sends all of them (up to `maxGroup`) in one unordered insertMany: one round trip,
 * one commit (one journal and majority wait on MongoDB) for many creates, and only `inFlight`
 * writers per instance at the server, which matters most where writes are serialised (the
 * SQLite under the test server takes one writer at a time). Each document's outcome goes back
 * to its own create: stored → 201; its id taken by another writer → the create retries with a
 * fresh id in a later group; anything unknown → the error (503), never a retry under a new id,
 * which could store the pet twice. A create whose deadline passes while it waits is never sent.
 */
export const createGroupInsert = (options: GroupInsertOptions) => {
  const { pets, ids, callQueue, storedFor } = options
  const queue: Waiting[] = []
  let running = 0

  /** The time left to a create, or undefined (and the create answered) when there is none. */
  const left = (waiting: Waiting): number | undefined => {
    try {
      return waiting.deadline.check()
    } catch (error) {
      waiting.reject(error)
      return undefined
    }
  }

  /** Takes the waiting creates, each with its next id; those out of time leave unsent. */
  const take = async (): Promise<Sent[]> => {
    const group: Sent[] = []
    while (group.length < options.maxGroup && queue.length > 0) {
      const waiting = queue.shift() as Waiting
      if (left(waiting) === undefined) continue
      try {
        group.push({ ...waiting, id: await ids.next() })
      } catch (error) {
        waiting.reject(error)
      }
    }
    return group
  }

  /**
   * The insert may take the most that remains to any create of the group: each create is still
   * bounded by its own hard bound (deadline.ts), and a create whose budget ends first but whose
   * document lands in time answers 201 rather than 503.
   */
  const send = async (withIds: ReadonlyArray<Sent>) => {
    // Claiming a block may have taken a while: who ran out of time meanwhile is not sent.
    const times = withIds.map(left)
    const group = withIds.filter((_, i) => times[i] !== undefined)
    if (group.length === 0) return
    const maxTimeMS = Math.max(...times.map((ms) => ms ?? 0))
    const docs = group.map((sent) =>
      (sent.keyed ? toKeyedDocument : toDocument)(sent.pet, sent.id, sent.op),
    )
    const error = await pets.insertMany(docs, { ordered: false, maxTimeMS }).then(
      () => undefined,
      (failure: unknown) => failure,
    )
    const taken: Sent[] = []
    insertOutcomes(group.length, error).forEach((outcome, i) => {
      const sent = group[i] as Sent
      if (outcome.kind === 'stored') sent.resolve({ ...sent.pet, id: sent.id } as Pet)
      else if (outcome.kind === 'taken') taken.push(sent)
      else sent.reject(outcome.error)
    })
    try {
      await retryTaken(taken)
    } catch (failure) {
      for (const sent of taken) sent.reject(failure)
    }
  }

  /**
   * A refused document's id is held by another writer, or (keyed) its op is stored already:
   * then that pet is the answer. The others try again with a fresh id, in the next group.
   */
  const retryTaken = async (taken: ReadonlyArray<Sent>) => {
    const retry: Sent[] = []
    for (const sent of taken) {
      const ms = sent.keyed ? left(sent) : 0
      if (ms === undefined) continue // out of time, answered
      const earlier = sent.keyed ? await storedFor(sent.op, ms) : undefined
      if (earlier !== undefined) sent.resolve(earlier)
      else if (sent.attempts < MAX_ATTEMPTS) retry.push(sent)
      else sent.reject(new Error(`no free id after ${MAX_ATTEMPTS} attempts`))
    }
    // Together, so that the creates of one group share a single catch-up lookup.
    await Promise.all(retry.map((sent) => ids.collided(sent.id, sent.attempts++ >= CATCH_UP_AFTER)))
    queue.unshift(...retry.map(({ id: _id, ...waiting }) => waiting))
  }

  /** Creates whose budget is spent leave the queue, having sent nothing. */
  const dropExpired = () => {
    for (const waiting of [...queue])
      if (left(waiting) === undefined) queue.splice(queue.indexOf(waiting), 1)
  }

  const sendNext = async () => {
    const head = queue[0]
    if (head === undefined) return
    // The call queue waits for a place at most as long as the oldest create may; when it gives up,
    // the creates it waited for are past their budget and leave unsent.
    await callQueue
      .through(head.deadline, async () => {
        const group = await take()
        await send(group).catch((error: unknown) => {
          for (const sent of group) sent.reject(error)
        })
      })
      .catch(dropExpired)
  }

  const pump = () => {
    while (running < options.inFlight && queue.length > 0) {
      running++
      void sendNext().finally(() => {
        running--
        pump()
      })
    }
  }

  return (pet: NewPet, op: string, keyed: boolean, deadline: Deadline): Promise<Pet> =>
    new Promise<Pet>((resolve, reject) => {
      queue.push({ pet, op, keyed, deadline, attempts: 1, resolve, reject })
      pump()
    })
}
