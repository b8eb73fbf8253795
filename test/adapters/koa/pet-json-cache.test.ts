import { expect } from 'chai'
import { PET_JSON_CACHE_CHARS, petJson, petsJson } from '../../../adapters/koa/app/json/pet-json.js'
import { writePetJson, type Pet } from '../../../core/index.js'

const petOf = (i: number): Pet =>
  ({ id: BigInt(i), name: `🐕 number ${i}`.padEnd(150, '🐈'), categoryId: 7n }) as unknown as Pet

describe("the cache of pets' JSON", () => {
  it('answers every pet as written afresh, through more pets than the cache holds, twice', () => {
    const pets = Array.from({ length: Math.ceil((PET_JSON_CACHE_CHARS / 200) * 2.5) }, (_, i) =>
      petOf(i + 1),
    )
    for (let round = 0; round < 2; round++)
      for (const pet of pets) if (petJson(pet) !== writePetJson(pet)) expect.fail(String(pet.id))
    const page = pets.slice(40, 60)
    expect(petsJson(page)).to.equal(`[${page.map(writePetJson).join(',')}]`)
  })
})
