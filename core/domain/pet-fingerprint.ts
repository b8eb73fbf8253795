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

/**
 * What "the same request" means for an idempotency key: the decoded NewPet in one canonical
 * form, tagged with the form's version (`2:`): the required fields' values in the codec's order,
 * then each optional field it has as `[name, value]`, integers as decimal strings. An absent
 * optional field is left out, so a field added to the codec changes no fingerprint of a body
 * without it. Kept whole rather than hashed: it is short (every keyed create keeps one), exact,
 * and needs no crypto in the core.
 */
export const petFingerprint = (pet: NewPet): string =>
  `2:${JSON.stringify([
    ...REQUIRED.map((field) => canonical(pet[field])),
    ...OPTIONAL.flatMap((field) =>
      pet[field] === undefined ? [] : [[field, canonical(pet[field])]],
    ),
  ])}`

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

/**
 * Whether `pet` is the request a stored fingerprint was computed from, whichever version of the
 * fingerprint the store holds: a retry that spans a deploy is recognised either way.
 */
export const sameRequest = (fingerprint: string, pet: NewPet): boolean =>
  fingerprint.startsWith('2:')
    ? fingerprint === petFingerprint(pet)
    : fingerprint === firstFormFingerprint(pet)
