import type { NewPet } from './new-pet.js'

/**
 * What "the same request" means for an idempotency key: the decoded NewPet, written in one
 * canonical form. Key order and spacing of the JSON do not matter; any difference in a decoded
 * value does. Kept whole rather than hashed: it is short (a name is
 * at most 200 characters), exact, and needs no crypto in the core.
 */
export const petFingerprint = (pet: NewPet): string =>
  JSON.stringify([pet.name, String(pet.categoryId), pet.status ?? null])
