import type { Pet } from '../../../../core/index.js'

/**
 * How each field of a Pet is written, in the order the JSON shows them. Typed over every key of
 * Pet, so a field added to the codecs fails to compile here until it is written too.
 */
type FieldWriters = { readonly [K in keyof Pet]-?: (value: NonNullable<Pet[K]>) => string }

/*
 * JSON.stringify cannot write a bigint, and turning ids into numbers first would round them
 * above 2^53: identifiers are written as their exact decimal digits.
 */
const writers: FieldWriters = {
  id: String,
  name: (name) => JSON.stringify(name),
  categoryId: String,
  status: (status) => `"${status}"`,
}
const fields = Object.entries(writers) as ReadonlyArray<[keyof Pet, (value: unknown) => string]>

/** A pet's JSON, written afresh: for a pet just created, which no reader has asked for yet. */
export const writePetJson = (pet: Pet): string => {
  let json = ''
  for (const [key, writeValue] of fields) {
    const value = pet[key]
    if (value !== undefined) json += `${json === '' ? '{' : ','}"${key}":${writeValue(value)}`
  }
  return `${json}}`
}

/*
 * Pets never change, and a store that keeps them in memory hands out the same objects again and
 * again: their JSON is written once and remembered for as long as the pet object lives. Listing
 * was the largest cost of ours in the profile (JSON.stringify of every name, every request).
 * Only what is read is remembered: a create's answer is written afresh (writePetJson), so a
 * stream of creates does not keep a second copy of every pet and grow the table.
 */
const written = new WeakMap<Pet, string>()

export const petJson = (pet: Pet): string => {
  let json = written.get(pet)
  if (json === undefined) {
    json = writePetJson(pet)
    written.set(pet, json)
  }
  return json
}

export const petsJson = (pets: ReadonlyArray<Pet>): string => {
  let json = '['
  for (let i = 0; i < pets.length; i++) json += (i === 0 ? '' : ',') + petJson(pets[i] as Pet)
  return `${json}]`
}
