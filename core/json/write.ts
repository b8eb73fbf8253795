import type { NewPet } from '../domain/new-pet.js'
import type { Pet } from '../domain/pet.js'
import type { PetStatus } from '../domain/pet-status.js'

/** A field as it goes on the wire: a brand says the value was checked, the writer needs not. */
type Plain<A> = A extends bigint ? bigint : A extends PetStatus ? A : A extends string ? string : A

/** The fields of a Pet, unchecked: any Pet is one, and so is a caller's object literal. */
export type PetFields = { readonly [K in keyof Pet]: Plain<Pet[K]> }
/** The fields of a NewPet, unchecked: any NewPet is one. */
export type NewPetFields = { readonly [K in keyof NewPet]: Plain<NewPet[K]> }

/** An identifier's exact digits: JSON.stringify throws on a bigint, a number rounds above 2^53. */
const int64 = (value: bigint): string => String(value)

/**
 * How each field is written, in the order the JSON shows them. Typed over every key of Pet, so a
 * field added to the codecs fails to compile here until it is written too.
 */
const writers: { readonly [K in keyof PetFields]-?: (value: NonNullable<PetFields[K]>) => string } =
  {
    id: int64,
    name: (name) => JSON.stringify(name),
    categoryId: int64,
    status: (status) => `"${status}"`,
  }
type Field = readonly [keyof PetFields, (value: unknown) => string]
const fields = Object.entries(writers) as ReadonlyArray<Field>

/** The int64 fields of a pet, those the string form writes as strings. */
export const INT64_FIELDS: ReadonlyArray<keyof PetFields> = fields
  .filter(([, writeValue]) => writeValue === int64)
  .map(([key]) => key)

/** The same writers, with every int64 field a JSON string of its digits (the string form). */
const stringFormFields: ReadonlyArray<Field> = fields.map(([key, writeValue]) => [
  key,
  writeValue === int64 ? (value) => `"${value as bigint}"` : writeValue,
])

const write = (
  pet: { readonly [K in keyof PetFields]?: PetFields[K] | undefined },
  form: ReadonlyArray<Field> = fields,
): string => {
  let json = ''
  for (const [key, writeValue] of form) {
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

/**
 * A pet in the string form, `{"id":"…","name":…,"categoryId":"…"}`: every int64 field a JSON
 * string of its exact digits, for a client whose JSON parser reads numbers as doubles.
 */
export const writePetJsonInt64Strings = (pet: PetFields): string => write(pet, stringFormFields)
