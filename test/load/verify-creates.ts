import type { Db } from 'mongodb'
import type { CreateAnswer } from './drive-creates.js'

export type Verdict = {
  /** Pets in the database, seeded ones included. */
  readonly stored: number
  /** 201 answers whose pet is not in the database under that id and name. */
  readonly lost: number
  /** Names stored more than once. */
  readonly duplicates: number
  /** Pets of this run stored although their request got no 201 (a 503, a reset). */
  readonly storedWithout201: number
  /** The same id in two 201 answers. */
  readonly idsAnsweredTwice: number
}

/** Matches the database against the answers through the unique names of this run. */
export const verifyCreates = async (
  db: Db,
  prefix: string,
  answers: ReadonlyArray<CreateAnswer>,
): Promise<Verdict> => {
  const pets = db.collection<{ _id: bigint; name: string }>('pets')
  const stored = await pets.countDocuments({})
  const mine = await pets
    .find({ name: { $regex: `^${prefix} ` } }, { projection: { _id: 1, name: 1 } })
    .toArray()
  const idsByName = new Map<string, bigint[]>()
  for (const pet of mine) idsByName.set(pet.name, [...(idsByName.get(pet.name) ?? []), pet._id])
  const created = answers.filter((a) => a.status === 201)
  const acked = new Set(created.map((a) => a.name))
  return {
    stored,
    lost: created.filter((a) => !(idsByName.get(a.name) ?? []).includes(a.id as bigint)).length,
    duplicates: [...idsByName.values()].filter((ids) => ids.length > 1).length,
    storedWithout201: [...idsByName.keys()].filter((name) => !acked.has(name)).length,
    idsAnsweredTwice: created.length - new Set(created.map((a) => String(a.id))).size,
  }
}
