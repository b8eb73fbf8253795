import { NEW_PET_OPTIONAL, NEW_PET_REQUIRED, type NewPet } from './new-pet.js'

/** The fields of a NewPet, from its codec: a field added there is part of the fingerprint. */
const REQUIRED = Object.keys(NEW_PET_REQUIRED) as ReadonlyArray<keyof NewPet>
const OPTIONAL = Object.keys(NEW_PET_OPTIONAL) as ReadonlyArray<keyof NewPet>

/**
 * The fields the first form of the fingerprint listed, frozen: it wrote every one of them (null
 * when absent), so a fingerprint of that form stays comparable after fields are added.
 */
const FIRST_FORM_FIELDS: ReadonlyArray<string> = ['name', 'categoryId', 'status']

const canonical = (value: unknown): unknown => (typeof value === 'bigint' ? String(value) : value)

/** The first form: the frozen fields' values in order, an absent one as null, untagged. */
const firstFormFingerprint = (pet: NewPet): string | undefined => {
  const fields = pet as unknown as Record<string, unknown>
  // A field the first form never listed cannot have been part of a request it fingerprinted.
  const beyond = Object.keys(fields).some(
    (field) => fields[field] !== undefined && !FIRST_FORM_FIELDS.includes(field),
  )
  if (beyond) return undefined
  return JSON.stringify(FIRST_FORM_FIELDS.map((field) => canonical(fields[field]) ?? null))
}

/** The tagged form: required values in the codec's order, then each optional field it has, named. */
const taggedFingerprint = (pet: NewPet): string =>
  `2:${JSON.stringify([
    ...REQUIRED.map((field) => canonical(pet[field])),
    ...OPTIONAL.flatMap((field) =>
      pet[field] === undefined ? [] : [[field, canonical(pet[field])]],
    ),
  ])}`

/**
 * What "the same request" means for an idempotency key: the decoded NewPet in one canonical
 * form, integers as decimal strings. A body of the first form's fields only is written in that
 * form: 2.0.0 compares fingerprints as strings, so a retry that lands on one of its instances
 * in a rolling deploy (or after a rollback) is replayed, not refused 422. A body with a field
 * the first form never listed, which 2.0.0 refuses anyway, takes the tagged form (`2:`), which
 * leaves absent optional fields out, so a field added to the codec changes no fingerprint of a
 * body without it. Kept whole rather than hashed: it is short (every keyed create keeps one),
 * exact, and needs no crypto in the core.
 */
export const petFingerprint = (pet: NewPet): string =>
  firstFormFingerprint(pet) ?? taggedFingerprint(pet)

/**
 * Whether `pet` is the request a stored fingerprint was computed from, whichever version of the
 * fingerprint the store holds: a retry that spans a deploy is recognised either way.
 */
export const sameRequest = (fingerprint: string, pet: NewPet): boolean =>
  fingerprint.startsWith('2:')
    ? fingerprint === taggedFingerprint(pet)
    : fingerprint === firstFormFingerprint(pet)
