import { NEW_PET_OPTIONAL, NEW_PET_REQUIRED, type NewPet } from './new-pet.js'

/** Every field of a NewPet, from its codec: a field added there is part of the fingerprint. */
const FIELDS = [
  ...Object.keys(NEW_PET_REQUIRED),
  ...Object.keys(NEW_PET_OPTIONAL),
] as ReadonlyArray<keyof NewPet>

/**
 * What "the same request" means for an idempotency key: the decoded NewPet, written in one
 * canonical form (its fields in the codec's order, integers as decimal strings, an absent field
 * as null). Key order and spacing of the JSON do not matter; any difference in a decoded value
 * does. Kept whole rather than hashed: it is short (a name's length is bounded), exact,
 * and needs no crypto in the core.
 */
export const petFingerprint = (pet: NewPet): string =>
  JSON.stringify(
    FIELDS.map((field) => {
      const value: unknown = pet[field]
      return typeof value === 'bigint' ? String(value) : (value ?? null)
    }),
  )
