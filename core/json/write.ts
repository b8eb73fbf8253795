import type { NewPet } from '../domain/new-pet.js'
import type { Pet } from '../domain/pet.js'
import type { PetStatus } from '../domain/pet-status.js'

/** A field as it goes on the wire: a brand says the value was checked, the writer needs not. */
type Plain<A> = A extends bigint ? bigint : A extends PetStatus ? A : A extends string ? string : A

/** The fields of a Pet, unchecked: any Pet is one, and so is a caller's object literal. */
export type PetFields = { readonly [K in keyof Pet]: Plain<Pet[K]> }
/** The fields of a NewPet, unchecked: any NewPet is one. */
export type NewPetFields = { readonly [K in keyof NewPet]: Plain<NewPet[K]> }

/**
 * How each field is written, in the order the JSON shows them. Typed over every key of Pet, so a
 * field added to the codecs fails to compile here until it is written too. JSON.stringify cannot
 * write a bigint, and a number would round it above 2^53: identifiers are their exact digits.
 */
const writers: { readonly [K in keyof PetFields]-?: (value: NonNullable<PetFields[K]>) => string } =
  {
    id: String,
    name: (name) => JSON.stringify(name),
    categoryId: String,
    status: (status) => `"${status}"`,
  }
const fields = Object.entries(writers) as ReadonlyArray<
  [keyof PetFields, (value: unknown) => string]
>

const write = (pet: { readonly [K in keyof PetFields]?: PetFields[K] | undefined }): string => {
  let json = ''
  for (const [key, writeValue] of fields) {
    const value = pet[key]
    if (value !== undefined) json += `${json === '' ? '{' : ','}"${key}":${writeValue(value)}`
  }
  return `${json}}`
}

/**
 * A pet as the service writes it: `{"id":…,"name":…,"categoryId":…,"status":…}`, ids and
 * categories as exact JSON integers (never rounded, never strings). `JSON.stringify` cannot do
 * this: it throws on a bigint.
 */
export const writePetJson = (pet: PetFields): string => write(pet)

/**
 * A new pet as a create's body: the fields of {@link writePetJson} without `id`, even when the
 * object given has one (a Pet is also a NewPet's fields).
 */
export const writeNewPetJson = (pet: NewPetFields): string => write({ ...pet, id: undefined })
