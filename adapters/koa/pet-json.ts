import { writePetJson, type Pet } from '../../core/index.js'

/** A pet's JSON, written afresh: for a pet just created, which no reader has asked for yet. */
export { writePetJson }

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
