import type { Collection } from 'mongodb'
import type { PetDocument } from './documents.js'
import { isDuplicateKey } from './store-failure.js'

export type CounterDocument = { _id: string; seq: bigint }

const COUNTER_ID = 'pets'

type Waiter = { resolve: (id: bigint) => void; reject: (error: unknown) => void; catchUp: boolean }

/**
 * Hands out candidate ids from a counter document. Creates that arrive while a counter update
 * is in flight wait and are then served together by one `$inc` of their number: one round trip
 * per batch rather than per create, and no herd of creates racing on the counter in one process.
 *
 * The counter is only a source of candidates: the unique `_id` index decides. A candidate that
 * another writer also got fails its insert with a duplicate key and is asked again with
 * `catchUp`, which first raises the counter to the largest id in use, so a counter that fell
 * behind (a lost race on FerretDB, an increment rolled back by a failover) recovers in one step.
 */
export const createIdAllocator = (
  counters: Collection<CounterDocument>,
  pets: Collection<PetDocument>,
) => {
  let waiting: Waiter[] = []
  let busy = false

  const increment = (by: bigint) =>
    counters.findOneAndUpdate(
      { _id: COUNTER_ID },
      { $inc: { seq: by } },
      { upsert: true, returnDocument: 'after' },
    )

  const catchUp = async () => {
    const last = await pets
      .find({}, { projection: { _id: 1 } })
      .sort({ _id: -1 })
      .limit(1)
      .next()
    if (last !== null)
      await counters.updateOne({ _id: COUNTER_ID }, { $max: { seq: last._id } }, { upsert: true })
  }

  const reserve = async (count: bigint): Promise<bigint> => {
    // Two first-ever upserts can race to create the counter; the loser increments the winner's.
    const counter = await increment(count).catch((error: unknown) =>
      isDuplicateKey(error) ? increment(count) : Promise.reject(error),
    )
    if (counter === null) throw new Error('the id counter did not answer')
    return counter.seq - count + 1n
  }

  const serveBatch = async () => {
    if (busy || waiting.length === 0) return
    busy = true
    const batch = waiting
    waiting = []
    try {
      if (batch.some((w) => w.catchUp)) await catchUp()
      let next = await reserve(BigInt(batch.length))
      for (const waiter of batch) waiter.resolve(next++)
    } catch (error) {
      for (const waiter of batch) waiter.reject(error)
    } finally {
      busy = false
      void serveBatch()
    }
  }

  return (options: { catchUp: boolean }): Promise<bigint> =>
    new Promise((resolve, reject) => {
      waiting.push({ resolve, reject, catchUp: options.catchUp })
      void serveBatch()
    })
}
