import * as E from 'fp-ts/lib/Either.js'
import {
  decodeWith,
  Pet,
  unreadablePet,
  type OnUnreadablePet,
  type UnreadablePet,
} from '../../core/index.js'

/** The records an in-memory store starts with, read: what it serves, and what it cannot read. */
export type StoredRecords = {
  /** The readable pets, by ascending id. */
  readonly pets: ReadonlyArray<Pet>
  /** Each unreadable record, by its id's digits (a record without an id is reported alone). */
  readonly unreadable: ReadonlyMap<string, UnreadablePet>
  /** The highest id among them: new pets get ids above it. */
  readonly lastId: bigint
}

const decodePet = decodeWith(Pet, 'pet')

const idOf = (record: Readonly<Record<string, unknown>>): bigint | undefined => {
  const id = record['id']
  if (typeof id === 'bigint') return id
  return typeof id === 'number' && Number.isSafeInteger(id) ? BigInt(id) : undefined
}

/** Reads records as any version wrote them, with the Pet codec the MongoDB store reads with. */
export const readStoredRecords = (
  records: ReadonlyArray<Readonly<Record<string, unknown>>>,
  report: OnUnreadablePet,
): StoredRecords => {
  const pets: Pet[] = []
  const unreadable = new Map<string, UnreadablePet>()
  let lastId = 0n
  for (const record of records) {
    const id = idOf(record)
    if (id !== undefined && id > lastId) lastId = id
    const read = decodePet(record)
    if (E.isRight(read)) {
      pets.push(read.right)
      continue
    }
    const problem = unreadablePet(String(record['id']), read.left.problems.join('; '))
    if (id !== undefined) unreadable.set(String(id), problem)
    report(problem)
  }
  pets.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
  return { pets, unreadable, lastId }
}
