import { expect } from 'chai'
import fc from 'fast-check'
import * as E from 'fp-ts/lib/Either.js'
import * as O from 'fp-ts/lib/Option.js'
import { INT64_MAX, type NewPet, type Pet, type PetId, type PetStore } from '../../core/index.js'
import { newPet, petStatus, positiveInt64 } from '../arbitraries/index.js'

/** A fresh, empty store, and how to dispose of it. */
export type StoreFactory = () => Promise<{ store: PetStore; dispose: () => Promise<void> }>

const ok = async <A>(task: () => Promise<E.Either<unknown, A>>): Promise<A> => {
  const result = await task()
  if (E.isLeft(result)) throw new Error(`store failed: ${JSON.stringify(result.left)}`)
  return result.right
}

/** The model every implementation of the PetStore port must match. */
export const petStoreContract = (
  name: string,
  freshStore: StoreFactory,
  runs = { properties: 25 },
) =>
  describe(`PetStore contract: ${name}`, function () {
    this.timeout(60_000)
    let store: PetStore
    let dispose: () => Promise<void>
    beforeEach(async () => ({ store, dispose } = await freshStore()))
    afterEach(() => dispose())

    const insertAll = async (pets: ReadonlyArray<NewPet>): Promise<Pet[]> => {
      const stored: Pet[] = []
      for (const pet of pets) stored.push(await ok(store.insertPet(pet)))
      return stored
    }

    it('stores a pet under a new id and finds it exactly as given', async () => {
      const pet = { name: 'Rex 🐈', categoryId: INT64_MAX, status: 'sold' } as NewPet
      const stored = await ok(store.insertPet(pet))
      expect(stored).to.deep.equal({ ...pet, id: stored.id })
      expect(await ok(store.findPet(stored.id))).to.deep.equal(O.some(stored))
    })

    it('keeps a pet without status without one', async () => {
      const stored = await ok(store.insertPet({ name: 'Tom', categoryId: 3n } as NewPet))
      const found = O.toUndefined(await ok(store.findPet(stored.id)))
      expect(found).to.deep.equal({ id: stored.id, name: 'Tom', categoryId: 3n })
      expect(found !== undefined && 'status' in found).to.equal(false)
    })

    it('finds nothing for an id never handed out', async () => {
      expect(await ok(store.findPet(INT64_MAX as PetId))).to.deep.equal(O.none)
      expect(await ok(store.findPet(1n as PetId))).to.deep.equal(O.none)
    })

    it('hands out distinct ids, ascending in insertion order', async () => {
      const ids = (
        await insertAll(
          Array.from({ length: 30 }, (_, i) => ({ name: `p${i}`, categoryId: 1n }) as NewPet),
        )
      ).map((p) => p.id)
      expect(ids).to.deep.equal([...ids].sort((a, b) => (a < b ? -1 : 1)))
      expect(new Set(ids).size).to.equal(30)
    })

    it('hands out distinct ids to concurrent inserts', async () => {
      const pets = Array.from(
        { length: 60 },
        (_, i) => ({ name: `c${i}`, categoryId: BigInt(i + 1) }) as NewPet,
      )
      const stored = await Promise.all(pets.map((pet) => ok(store.insertPet(pet))))
      expect(new Set(stored.map((p) => p.id)).size).to.equal(60)
      for (const pet of stored) expect(await ok(store.findPet(pet.id))).to.deep.equal(O.some(pet))
    })

    it('round-trips categoryId exactly over the int64 range (property)', async () => {
      await fc.assert(
        fc.asyncProperty(positiveInt64(), async (categoryId) => {
          const stored = await ok(store.insertPet({ name: 'n', categoryId } as NewPet))
          expect(O.toUndefined(await ok(store.findPet(stored.id)))?.categoryId).to.equal(categoryId)
        }),
        { numRuns: runs.properties },
      )
    })

    it('lists pages as the model says: above `after`, by status, ascending, at most `limit` (property)', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(newPet(), { maxLength: 25 }),
          fc.array(
            fc.record({
              limit: fc.integer({ min: 1, max: 30 }),
              status: fc.option(petStatus(), { nil: undefined }),
              afterIndex: fc.option(fc.nat(30), { nil: undefined }),
            }),
            { minLength: 1, maxLength: 5 },
          ),
          async (pets, queries) => {
            const { store: local, dispose: disposeLocal } = await freshStore()
            try {
              const stored: Pet[] = []
              for (const pet of pets) stored.push(await ok(local.insertPet(pet)))
              for (const { limit, status, afterIndex } of queries) {
                const after =
                  afterIndex === undefined ? undefined : (stored[afterIndex]?.id ?? INT64_MAX)
                const expected = stored
                  .filter(
                    (p) =>
                      (status === undefined || p.status === status) &&
                      (after === undefined || p.id > after),
                  )
                  .slice(0, limit)
                const request = {
                  limit,
                  ...(status ? { status } : {}),
                  ...(after !== undefined ? { after: after as PetId } : {}),
                }
                expect(await ok(local.listPetPage(request))).to.deep.equal(expected)
              }
            } finally {
              await disposeLocal()
            }
          },
        ),
        { numRuns: runs.properties },
      )
    })
  })
