import type { Pet } from '../../core/index.js'

/*
 * JSON.stringify cannot write a bigint, and turning ids into numbers first would round them
 * above 2^53. A Pet has four known fields, so it is written by hand: exact and faster too.
 */
export const petJson = (pet: Pet): string =>
  `{"id":${pet.id},"name":${JSON.stringify(pet.name)},"categoryId":${pet.categoryId}${
    pet.status === undefined ? '' : `,"status":"${pet.status}"`
  }}`

export const petsJson = (pets: ReadonlyArray<Pet>): string => `[${pets.map(petJson).join(',')}]`
