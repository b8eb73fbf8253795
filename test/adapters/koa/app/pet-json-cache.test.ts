import { expect } from 'chai'
import {
  PET_JSON_CACHE_CHARS,
  createPetJsonCache,
} from '../../../../adapters/koa/app/json/pet-json.js'
import { writePetJson, type Pet } from '../../../../core/index.js'

const petOf = (i: number): Pet =>
  ({ id: BigInt(i), name: `🐕 number ${i}`.padEnd(150, '🐈'), categoryId: 7n }) as unknown as Pet

describe("the cache of pets' JSON", () => {
  it('answers every pet as written afresh, through more pets than the cache holds, twice', () => {
    const cache = createPetJsonCache()
    const pets = Array.from({ length: Math.ceil((PET_JSON_CACHE_CHARS / 200) * 2.5) }, (_, i) =>
      petOf(i + 1),
    )
    for (let round = 0; round < 2; round++)
      for (const pet of pets) if (cache.pet(pet) !== writePetJson(pet)) expect.fail(String(pet.id))
    const page = pets.slice(40, 60)
    expect(cache.pets(page)).to.equal(`[${page.map(writePetJson).join(',')}]`)
  })

  it('belongs to the app that made it: another cache neither shares nor evicts its entries', () => {
    // A pet changed after it was cached shows which cache answered from memory.
    const pet = { ...petOf(1) }
    const first = createPetJsonCache()
    const remembered = first.pet(pet)
    ;(pet as { name: string }).name = 'Rex'
    const second = createPetJsonCache(1)
    expect(second.pet(pet)).to.equal(writePetJson(pet))
    for (let i = 2; i < 50; i++) second.pet(petOf(i)) // the second drops its entries each time
    expect(first.pet(pet)).to.equal(remembered)
  })
})
