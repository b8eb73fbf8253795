import { writePetJson, type Pet } from '../../../../core/index.js'
import { writePetJsonInt64Strings } from '../../../../core/json/write.js'

/** A pet's JSON, written afresh: for a pet just created, which no reader has asked for yet. */
export { writePetJson }

/**
 * The most characters of pets' JSON one app remembers at once: at most about 2 MB of strings
 * (two bytes a character at worst) and a Map entry each, whatever the number of pets or reads.
 */
export const PET_JSON_CACHE_CHARS = 1_000_000

/** The JSON of pets read lately, remembered by the app that made it. */
export type PetJsonCache = {
  /** One pet's JSON. */
  readonly pet: (pet: Pet) => string
  /** A JSON array of pets. */
  readonly pets: (pets: ReadonlyArray<Pet>) => string
}

/** Reading a character makes V8 flatten a concatenated string into one piece of memory. */
const flattened = (json: string): string => {
  json.charCodeAt(json.length - 1)
  return json
}

/*
 * Pets never change, and a store that keeps them in memory hands out the same objects again and
 * again: listing was the largest cost of ours in the profile (JSON.stringify of every name, every
 * request), so the JSON of pets read lately is remembered. Bounded: once the characters held
 * would pass `maxChars` the whole cache is dropped and filled again by what is read next (no
 * bookkeeping per read), so reading every pet never grows the heap. Each entry is flattened once:
 * the concatenation's pieces would otherwise be kept with it. One per app, so that two apps in a
 * process neither share nor evict each other's entries.
 */
export const createPetJsonCache = (maxChars: number = PET_JSON_CACHE_CHARS): PetJsonCache => {
  let cached = new Map<Pet, string>()
  let cachedChars = 0
  const pet = (one: Pet): string => {
    let json = cached.get(one)
    if (json === undefined) {
      json = flattened(writePetJson(one))
      if (cachedChars + json.length > maxChars) {
        cached = new Map()
        cachedChars = 0
      }
      cached.set(one, json)
      cachedChars += json.length
    }
    return json
  }
  const pets = (all: ReadonlyArray<Pet>): string => {
    let json = '['
    for (let i = 0; i < all.length; i++) json += (i === 0 ? '' : ',') + pet(all[i] as Pet)
    return `${json}]`
  }
  return { pet, pets }
}

/** Pets in the string form (int64-form.ts): written afresh each time, as the form is opt-in. */
export const petsJsonInt64Strings = (pets: ReadonlyArray<Pet>): string =>
  `[${pets.map(writePetJsonInt64Strings).join(',')}]`

export { writePetJsonInt64Strings }
