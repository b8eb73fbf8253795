import * as E from 'fp-ts/lib/Either.js'
import type { Db } from 'mongodb'
import { decodeWith, NewPet } from '../../core/index.js'
import { fromDocument, type PetDocument } from './documents.js'
import { PETS } from './pet-store.js'

/** A stored pet that today's rules would not take as it is. */
export type StoredPetFinding = {
  /** The pet's id, as its digits (or as stored, when it is not an integer). */
  readonly id: string
  /** True when this version cannot serve it at all (left out of every page). */
  readonly unreadable: boolean
  /** Each rule it breaks, in the words of a 400 (an unknown field among them). */
  readonly problems: ReadonlyArray<string>
}

const decodeInput = decodeWith(NewPet, 'pet')
const INTERNAL = new Set(['_id', '_v', '_op', '_idem'])

/**
 * Reads every stored pet, in id order, and yields those that today's input rules would refuse as
 * a create's body (a rule tightened since they were written, or a field a later version added),
 * and those this version cannot read at all, a stored id out of range among them.
 * Only reads: run it before tightening a rule, to know what it would have refused.
 */
export async function* checkStoredPets(db: Db): AsyncGenerator<StoredPetFinding> {
  const cursor = db.collection<PetDocument>(PETS).find({}).sort({ _id: 1 })
  for await (const doc of cursor) {
    const fields = Object.fromEntries(Object.entries(doc).filter(([key]) => !INTERNAL.has(key)))
    const input = decodeInput(fields)
    // The id is no input's, but a stored one that no version could have written hides the pet.
    const read = fromDocument(doc)
    if (E.isRight(input) && E.isRight(read)) continue
    yield {
      id: String(doc._id),
      unreadable: E.isLeft(read),
      problems: E.isLeft(input) ? input.left.problems : E.isLeft(read) ? [read.left.reason] : [],
    }
  }
}
