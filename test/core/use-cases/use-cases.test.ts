import { expect } from 'chai'
import fc from 'fast-check'
import * as E from 'fp-ts/lib/Either.js'
import * as O from 'fp-ts/lib/Option.js'
import { createInMemoryApiKeys, createInMemoryPetStore } from '../../../adapters/in-memory/index.js'
import {
  authenticate,
  createPet,
  getPet,
  listPets,
  type Pet,
  type PetPage,
} from '../../../core/index.js'
import { newPet, petStatus } from '../../../adapters/testing/index.js'

const run = async <A>(task: () => Promise<E.Either<unknown, A>>): Promise<A> => {
  const result = await task()
  if (E.isLeft(result)) throw new Error(`unexpected Left: ${JSON.stringify(result.left)}`)
  return result.right
}

describe('use cases on the in-memory store', () => {
  it('createPet then getPet returns the same pet, for any valid NewPet', async () => {
    const store = createInMemoryPetStore()
    await fc.assert(
      fc.asyncProperty(newPet(), async (pet) => {
        const created = await run(createPet(store)(pet))
        expect(created).to.deep.equal({ ...pet, id: created.id })
        expect(await run(getPet(store)(created.id))).to.deep.equal(created)
        expect(await run(getPet(store)(String(created.id)))).to.deep.equal(created)
      }),
    )
  })

  it('gives every pet a new id', async () => {
    const store = createInMemoryPetStore()
    const ids = new Set<bigint>()
    for (let i = 0; i < 200; i++)
      ids.add((await run(createPet(store)({ name: 'x', categoryId: 1n }))).id)
    expect(ids.size).to.equal(200)
  })

  it('getPet answers PetNotFound for a missing id and InvalidInput for a malformed one', async () => {
    const store = createInMemoryPetStore()
    expect(await getPet(store)(5n)()).to.deep.equal(E.left({ _tag: 'PetNotFound', id: 5n }))
    expect(await getPet(store)('abc')()).to.deep.equal(
      E.left({
        _tag: 'InvalidInput',
        problems: [
          'petId must be an integer from 1 to 9223372036854775807, digits only, at most 40 of them',
        ],
      }),
    )
  })

  it('listPets pages never exceed limit, are sorted and filtered, and chain to cover all (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(newPet(), { maxLength: 40 }),
        fc.integer({ min: 1, max: 9 }),
        fc.option(petStatus(), { nil: undefined }),
        async (pets, limit, status) => {
          const store = createInMemoryPetStore()
          for (const pet of pets) await run(createPet(store)(pet))
          const seen: Pet[] = []
          let query: object | undefined = { limit, ...(status ? { status } : {}) }
          while (query !== undefined) {
            const page: PetPage = await run(listPets(store)(query))
            expect(page.pets.length).to.be.at.most(limit)
            seen.push(...page.pets)
            query = O.toUndefined(page.next)
          }
          const ids = seen.map((p) => p.id)
          expect(ids).to.deep.equal([...ids].sort((a, b) => (a < b ? -1 : 1)))
          expect(seen.every((p) => status === undefined || p.status === status)).to.equal(true)
          expect(seen.length).to.equal(
            pets.filter((p) => status === undefined || p.status === status).length,
          )
        },
      ),
      { numRuns: 50 },
    )
  })

  it('listPets defaults to 20 and refuses bad input', async () => {
    const store = createInMemoryPetStore()
    for (let i = 0; i < 30; i++) await run(createPet(store)({ name: `p${i}`, categoryId: 1n }))
    expect((await run(listPets(store)())).pets).to.have.length(20)
    expect(E.isLeft(await listPets(store)({ limit: 0 })())).to.equal(true)
  })

  it('authenticate accepts configured keys and refuses an unknown one as presented', async () => {
    const keys = createInMemoryApiKeys(['k1-secret', 'k2-secret'])
    expect(E.isRight(await authenticate(keys)('k2-secret')())).to.equal(true)
    expect(await authenticate(keys)('k1-secreT')()).to.deep.equal(
      E.left({ _tag: 'Unauthenticated', presented: true }),
    )
  })
})
