import { expect } from 'chai'
import * as E from 'fp-ts/lib/Either.js'
import {
  createInMemoryPetStore,
  IN_MEMORY_CAPACITY_DEFAULT,
} from '../../../adapters/in-memory/index.js'
import type { NewPet } from '../../../core/index.js'
import { petStoreContract } from '../../../adapters/testing/index.js'

petStoreContract(
  'in-memory',
  async (options) => ({ store: createInMemoryPetStore(options), dispose: async () => {} }),
  { properties: 100, supports: { capacity: true, storedRecords: true } },
)

describe('in-memory pet store: capacity', () => {
  it('refuses a pet past its capacity with StoreFull, and stores nothing', async () => {
    const store = createInMemoryPetStore({ capacity: 1 })
    const pet = { name: 'Rex', categoryId: 1n } as NewPet
    expect((await store.insertPet(pet)())._tag).to.equal('Right')
    expect(await store.insertPet(pet)()).to.deep.equal(E.left({ _tag: 'StoreFull', capacity: 1 }))
    const all = await store.listPetPage({ limit: 100 })()
    expect(E.isRight(all) && all.right.length).to.equal(1)
  })

  it('with capacity 0 refuses the first pet; with Infinity has no limit', async () => {
    const pet = { name: 'Rex', categoryId: 1n } as NewPet
    const empty = createInMemoryPetStore({ capacity: 0 })
    expect(await empty.insertPet(pet)()).to.deep.equal(E.left({ _tag: 'StoreFull', capacity: 0 }))
    const unbounded = createInMemoryPetStore({ capacity: Infinity })
    expect((await unbounded.insertPet(pet)())._tag).to.equal('Right')
  })

  for (const capacity of [NaN, -1, 1.5, -Infinity])
    it(`refuses the capacity ${capacity} with a RangeError instead of holding pets without a limit`, () => {
      expect(() => createInMemoryPetStore({ capacity })).to.throw(
        RangeError,
        `capacity must be a whole number from 0, or Infinity: got ${capacity}`,
      )
    })

  it('holds IN_MEMORY_CAPACITY_DEFAULT pets by default', () => {
    expect(IN_MEMORY_CAPACITY_DEFAULT).to.equal(1_000_000)
  })
})

describe('in-memory pet store: the id it assigns', () => {
  it('keeps its own id when an untyped caller slips an `id` into the new pet', async () => {
    const store = createInMemoryPetStore()
    const stray = { name: 'Rex', categoryId: 1n, id: 99n } as unknown as NewPet
    const stored = await store.insertPet(stray)()
    expect(E.isRight(stored) && stored.right.id).to.equal(1n)
    const found = await store.findPet(1n as never)()
    expect(E.isRight(found) && found.right).to.deep.equal(
      E.isRight(stored) && { _tag: 'Some', value: stored.right },
    )
  })
})
