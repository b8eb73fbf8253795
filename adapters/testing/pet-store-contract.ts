import assert from 'node:assert/strict'
import fc from 'fast-check'
import * as E from 'fp-ts/lib/Either.js'
import * as O from 'fp-ts/lib/Option.js'
import {
  INT64_MAX,
  LIST_LIMITS,
  type NewPet,
  type Pet,
  type PetId,
  type PetStore,
} from '../../core/index.js'
import { newPet, petStatus, positiveInt64 } from './arbitraries.js'
import { testFunctionsOf, type TestFunctions } from './test-functions.js'

/** A fresh, empty store, and how to dispose of it. */
export type StoreFactory = () => Promise<{ store: PetStore; dispose: () => Promise<void> }>

export type PetStoreContractOptions = {
  /** Runs of each property (fast-check's numRuns); 25 by default. */
  readonly properties?: number
  /** describe, it, beforeEach, afterEach of your runner; mocha's globals by default. */
  readonly test?: TestFunctions
}

const ok = async <A>(task: () => Promise<E.Either<unknown, A>>): Promise<A> => {
  const result = await task()
  if (E.isLeft(result)) throw new Error(`store failed: ${JSON.stringify(result.left)}`)
  return result.right
}

/**
 * The model every implementation of the PetStore port must match: one call registers the whole
 * suite (a describe block) with the runner. Assertions use node:assert, so any runner works.
 */
export const petStoreContract = (
  name: string,
  freshStore: StoreFactory,
  options: PetStoreContractOptions = {},
): void => {
  const { describe, it, beforeEach, afterEach } = testFunctionsOf(options.test)
  const runs = { properties: options.properties ?? 25 }
  describe(`PetStore contract: ${name}`, function (this: unknown) {
    // mocha's per-test default (2 s) is too short for a database; node:test has no default.
    const mocha = this as { timeout?: (ms: number) => void } | undefined
    if (typeof mocha?.timeout === 'function') mocha.timeout(60_000)
    let store: PetStore
    let dispose: () => Promise<void>
    beforeEach(async () => {
      ;({ store, dispose } = await freshStore())
    })
    afterEach(() => dispose())

    const insertAll = async (pets: ReadonlyArray<NewPet>): Promise<Pet[]> => {
      const stored: Pet[] = []
      for (const pet of pets) stored.push(await ok(store.insertPet(pet)))
      return stored
    }

    it('stores a pet under a new id and finds it exactly as given', async () => {
      const pet = { name: 'Rex 🐈', categoryId: INT64_MAX, status: 'sold' } as NewPet
      const stored = await ok(store.insertPet(pet))
      assert.deepEqual(stored, { ...pet, id: stored.id })
      assert.deepEqual(await ok(store.findPet(stored.id)), O.some(stored))
      // Names are kept exactly: spaces at either end included.
      const spaced = { name: ' \u00a0Rex  ', categoryId: 1n } as NewPet
      const kept = await ok(store.insertPet(spaced))
      assert.deepEqual(O.toUndefined(await ok(store.findPet(kept.id)))?.name, spaced.name)
    })

    it('serves pages as large as the service asks for (LIST_LIMITS.max + 1, to see whether more exist)', async () => {
      const pageSize = LIST_LIMITS.max + 1
      const statuses = ['available', 'pending', undefined] as const
      const stored = await insertAll(
        Array.from({ length: pageSize + 30 }, (_, i) => {
          const status = statuses[i % 3]
          return { name: `p${i}`, categoryId: 1n, ...(status ? { status } : {}) } as NewPet
        }),
      )
      assert.deepEqual(await ok(store.listPetPage({ limit: pageSize })), stored.slice(0, pageSize))
      const last = stored[pageSize - 1] as Pet
      assert.deepEqual(
        await ok(store.listPetPage({ limit: pageSize, after: last.id })),
        stored.slice(pageSize),
      )
      const available = stored.filter((p) => p.status === 'available')
      assert.deepEqual(
        await ok(store.listPetPage({ limit: pageSize, status: 'available' })),
        available.slice(0, pageSize),
      )
    })

    it('keeps a pet without status without one', async () => {
      const stored = await ok(store.insertPet({ name: 'Tom', categoryId: 3n } as NewPet))
      const found = O.toUndefined(await ok(store.findPet(stored.id)))
      assert.deepEqual(found, { id: stored.id, name: 'Tom', categoryId: 3n })
      assert.equal(found !== undefined && 'status' in found, false)
    })

    it('finds nothing for an id never handed out', async () => {
      assert.deepEqual(await ok(store.findPet(INT64_MAX as PetId)), O.none)
      assert.deepEqual(await ok(store.findPet(1n as PetId)), O.none)
    })

    it('hands out distinct ids, ascending in insertion order', async () => {
      const ids = (
        await insertAll(
          Array.from({ length: 30 }, (_, i) => ({ name: `p${i}`, categoryId: 1n }) as NewPet),
        )
      ).map((p) => p.id)
      assert.deepEqual(
        ids,
        [...ids].sort((a, b) => (a < b ? -1 : 1)),
      )
      assert.equal(new Set(ids).size, 30)
    })

    it('hands out distinct ids to concurrent inserts', async () => {
      const pets = Array.from(
        { length: 60 },
        (_, i) => ({ name: `c${i}`, categoryId: BigInt(i + 1) }) as NewPet,
      )
      const stored = await Promise.all(pets.map((pet) => ok(store.insertPet(pet))))
      assert.equal(new Set(stored.map((p) => p.id)).size, 60)
      for (const pet of stored) assert.deepEqual(await ok(store.findPet(pet.id)), O.some(pet))
    })

    it('round-trips categoryId exactly over the int64 range (property)', async () => {
      await fc.assert(
        fc.asyncProperty(positiveInt64(), async (categoryId) => {
          const stored = await ok(store.insertPet({ name: 'n', categoryId } as NewPet))
          assert.equal(O.toUndefined(await ok(store.findPet(stored.id)))?.categoryId, categoryId)
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
              // What was stored is what was given, so the pages below are checked against it.
              stored.forEach((p, i) => assert.deepEqual(p, { ...pets[i], id: p.id }))
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
                assert.deepEqual(await ok(local.listPetPage(request)), expected)
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
}
