import { writePetJson, type Pet } from '../../../../core/index.js'
import { writePetJsonInt64Strings } from '../../../../core/json/write.js'

/** A pet's JSON, written afresh: for a pet just created, which no reader has asked for yet. */
export { writePetJson }

/**
 * The most characters of pets' JSON remembered at once: at most about 2 MB of strings (two bytes
 * a character at worst) and a Map entry each, whatever the number of pets or reads.
 */
export const PET_JSON_CACHE_CHARS = 1_000_000

/*
 * Pets never change, and a store that keeps them in memory hands out the same objects again and
 * again: listing was the largest cost of ours in the profile (JSON.stringify of every name, every
 * request), so the JSON of pets read lately is remembered. Bounded: once the characters held
 * would pass PET_JSON_CACHE_CHARS the whole cache is dropped and filled again by what is read
 * next (no bookkeeping per read), so reading every pet never grows the heap. Each entry is made
 * flat once (see flat): the concatenation's pieces would otherwise be kept with it.
 */
let written = new Map<Pet, string>()
let writtenChars = 0

/** Reading a character makes V8 flatten a concatenated string into one piece of memory. */
const flat = (json: string): string => {
  json.charCodeAt(json.length - 1)
  return json
}

export const petJson = (pet: Pet): string => {
  let json = written.get(pet)
  if (json === undefined) {
    json = flat(writePetJson(pet))
    if (writtenChars + json.length > PET_JSON_CACHE_CHARS) {
      written = new Map()
      writtenChars = 0
    }
    written.set(pet, json)
    writtenChars += json.length
  }
  return json
}

export const petsJson = (pets: ReadonlyArray<Pet>): string => {
  let json = '['
  for (let i = 0; i < pets.length; i++) json += (i === 0 ? '' : ',') + petJson(pets[i] as Pet)
  return `${json}]`
}

/** Pets in the string form (int64-form.ts): written afresh each time, as the form is opt-in. */
export const petsJsonInt64Strings = (pets: ReadonlyArray<Pet>): string =>
  `[${pets.map(writePetJsonInt64Strings).join(',')}]`

export { writePetJsonInt64Strings }
