import type { Collection } from 'mongodb'
import { INT64_MAX } from '../../core/index.js'
import type { PetDocument } from './documents.js'
import { isDuplicateKey } from './store-failure.js'

/** `seq`: the last id of the newest block claimed; a hint where to look, never a decision. */
export type CounterDocument = { _id: string; seq: bigint }
/** A claimed block: `_id` n owns the ids n·size+1 … (n+1)·size. */
export type BlockDocument = { _id: bigint }

const COUNTER_ID = 'pets'
/** Ids per block: an instance writes two small documents per block, not one per create. */
export const ID_BLOCK_SIZE = 1000n

type Block = { next: bigint; readonly first: bigint; readonly last: bigint }

/**
 * A stored number as a bigint, rounded up. This code writes Longs, read back as bigints, but a
 * counter or an id written by other means comes back as a number (mongosh writes doubles,
 * mongoimport int32), and a number mixed with bigints throws: every claim would fail. Anything
 * else (a string, a Decimal128) tells nothing.
 */
const wholeOf = (stored: unknown): bigint | undefined => {
  if (typeof stored === 'bigint') return stored
  return typeof stored === 'number' && Number.isFinite(stored)
    ? BigInt(Math.ceil(stored))
    : undefined
}

export type IdAllocator = {
  /** The next id of this instance's block; claims a new block when it is used up. */
  readonly next: () => Promise<bigint>
  /**
   * Another writer stored `id`: the block it came from is abandoned. With `catchUp` (repeated
   * collisions for one create), the largest id in use is looked up first.
   */
  readonly collided: (id: bigint, catchUp: boolean) => Promise<void>
}

type Collections = {
  readonly counters: Collection<CounterDocument>
  readonly blocks: Collection<BlockDocument>
  readonly pets: Collection<PetDocument>
}

/** Every positive int64 id is used or passed: a create can never succeed again (507, not 503). */
export class IdentifiersExhausted extends Error {
  override readonly name = 'IdentifiersExhausted'
  constructor() {
    super('the identifier space is exhausted')
  }
}

/**
 * Hi/lo ids with blocks claimed through a unique index. An instance claims a block by
 * inserting its number: the unique `_id` index of `id_blocks` gives each block to one writer,
 * atomically on MongoDB and on the test server alike (a counter's findAndModify is not atomic
 * on the latter, so two instances could get the same block and collide on every id). The
 * instance then hands the block's ids out itself, in ascending order: instances never queue
 * on a shared document. The unique `_id` index of `pets` still decides: an id stored by
 * someone else (a block claim lost with a failover, ids written by other means) fails its
 * insert, the create takes another id, and the block is abandoned. `floor`, the largest id this
 * instance knows to be in use, keeps its blocks ascending and above every collision seen.
 */
export const createIdAllocator = (
  { counters, blocks, pets }: Collections,
  options: { readonly maxTimeMS: number; readonly blockSize?: bigint },
): IdAllocator => {
  const { maxTimeMS } = options
  const size = options.blockSize ?? ID_BLOCK_SIZE
  let block: Block | undefined
  let floor = 0n
  let candidate: bigint | undefined
  let claiming: Promise<void> | undefined
  let catchingUp: Promise<void> | undefined

  const blockAbove = (id: bigint) => (id + size - 1n) / size

  const hint = async () => {
    const counter = await counters.findOne({ _id: COUNTER_ID }, { maxTimeMS })
    return blockAbove(wholeOf(counter?.seq) ?? 0n)
  }

  const raiseHint = (seq: bigint) => {
    const raise = () =>
      counters.updateOne({ _id: COUNTER_ID }, { $max: { seq } }, { upsert: true, maxTimeMS })
    // Two first-ever upserts can race to create the counter; the loser raises the winner's.
    return raise().catch((error: unknown) =>
      isDuplicateKey(error) ? raise() : Promise.reject(error),
    )
  }

  const claim = async (): Promise<void> => {
    let n = candidate ?? (await hint())
    for (let lost = 0; ; n++, lost++) {
      if (n < blockAbove(floor)) n = blockAbove(floor)
      // Many claims lost in a row: others are far ahead, and the hint says where.
      if (lost > 0 && lost % 8 === 0) {
        const ahead = await hint()
        if (ahead > n) n = ahead
      }
      const won = await blocks.insertOne({ _id: n }, { maxTimeMS }).then(
        () => true,
        (error: unknown) => (isDuplicateKey(error) ? false : Promise.reject(error)),
      )
      if (!won) continue
      candidate = n + 1n
      block = { next: n * size + 1n, first: n * size + 1n, last: (n + 1n) * size }
      // The top block ends past int64, which BSON would wrap below zero and `$max` then ignore:
      // the hint stops at the last id there is, so later claims still start above it.
      await raiseHint(block.last > INT64_MAX ? INT64_MAX : block.last)
      return
    }
  }

  const largestInUse = async () => {
    // Ids only: BSON orders a string or an ObjectId `_id` (a pet stored by other means) above
    // every number, and a number past int64 is no id this store could collide with; either
    // would hide the largest id, or end every create 507.
    const last = await pets
      .find({ _id: { $gt: 0n, $lte: INT64_MAX } }, { projection: { _id: 1 }, maxTimeMS })
      .sort({ _id: -1 })
      .limit(1)
      .next()
    const largest = wholeOf(last?._id)
    if (largest !== undefined && largest > floor) floor = largest
  }

  const next = async (): Promise<bigint> => {
    for (;;) {
      if (block !== undefined && block.next <= floor) block = undefined
      if (block !== undefined && block.next <= block.last) {
        // Ids are positive int64 (BSON Long): past the last one no create can succeed again.
        if (block.next > INT64_MAX) throw new IdentifiersExhausted()
        const id = block.next++
        floor = id
        return id
      }
      // Creates that find the block used up share one claim.
      claiming ??= claim().finally(() => (claiming = undefined))
      await claiming
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
