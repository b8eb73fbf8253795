import type { Collection } from 'mongodb'
import type { PetDocument } from './documents.js'
import { isDuplicateKey } from './store-failure.js'

export type CounterDocument = { _id: string; seq: bigint }

const COUNTER_ID = 'pets'
/** Ids one counter update reserves: the counter sees one write per block, not per create. */
export const DEFAULT_ID_BLOCK = 1000n

type Block = { next: bigint; readonly first: bigint; readonly last: bigint }

export type IdAllocator = {
  /** The next id of this instance's block; reserves a new block when it is used up. */
  readonly next: () => Promise<bigint>
  /**
   * Another writer stored `id`: the block it came from is abandoned. With `catchUp` (repeated
   * collisions for one create), the largest id in use is looked up first: the counter is behind.
   */
  readonly collided: (id: bigint, catchUp: boolean) => Promise<void>
}

/**
 * Hi/lo ids. Each instance reserves a block of ids with one `$inc` on a counter document and
 * hands them out itself, in ascending order, so instances do not queue on the counter. The
 * counter is only a source of candidates; the unique `_id` index decides. Two instances can
 * hold the same block (FerretDB's findAndModify is not atomic; on MongoDB an acknowledged
 * update can roll back after a failover): their inserts then collide and the loser moves to a
 * new block. `floor`, the largest id this instance knows to be in use, keeps blocks ascending:
 * a counter that answers at or below it is raised with `$max` before the block is taken.
 */
export const createIdAllocator = (
  counters: Collection<CounterDocument>,
  pets: Collection<PetDocument>,
  options: { readonly blockSize: bigint; readonly maxTimeMS: number },
): IdAllocator => {
  const { blockSize, maxTimeMS } = options
  let block: Block | undefined
  let floor = 0n
  let reserving: Promise<void> | undefined
  let catchingUp: Promise<void> | undefined

  const increment = () =>
    counters.findOneAndUpdate(
      { _id: COUNTER_ID },
      { $inc: { seq: blockSize } },
      { upsert: true, returnDocument: 'after', maxTimeMS },
    )

  const raiseTo = (seq: bigint) =>
    counters.updateOne({ _id: COUNTER_ID }, { $max: { seq } }, { upsert: true, maxTimeMS })

  const reserve = async (): Promise<void> => {
    for (let tries = 0; tries < 3; tries++) {
      // Two first-ever upserts can race to create the counter; the loser increments the winner's.
      const counter = await increment().catch((error: unknown) =>
        isDuplicateKey(error) ? increment() : Promise.reject(error),
      )
      if (counter === null) throw new Error('the id counter did not answer')
      const first = counter.seq - blockSize + 1n
      if (first > floor) {
        block = { next: first, first, last: counter.seq }
        return
      }
      await raiseTo(floor)
    }
    throw new Error('the id counter stays behind the ids in use')
  }

  const largestInUse = async () => {
    const last = await pets
      .find({}, { projection: { _id: 1 }, maxTimeMS })
      .sort({ _id: -1 })
      .limit(1)
      .next()
    if (last !== null && last._id > floor) floor = last._id
  }

  const next = async (): Promise<bigint> => {
    for (;;) {
      if (block !== undefined && block.next <= floor) block = undefined
      if (block !== undefined && block.next <= block.last) {
        const id = block.next++
        floor = id
        return id
      }
      // Creates that find the block used up share one reservation.
      reserving ??= reserve().finally(() => (reserving = undefined))
      await reserving
    }
  }

  const collided = async (id: bigint, catchUp: boolean): Promise<void> => {
    if (id > floor) floor = id
    if (block !== undefined && block.first <= id && id <= block.last) block = undefined
    if (!catchUp) return
    catchingUp ??= largestInUse().finally(() => (catchingUp = undefined))
    await catchingUp
  }

  return { next, collided }
}
