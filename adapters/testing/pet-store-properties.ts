import assert from 'node:assert/strict'
import fc from 'fast-check'
import * as O from 'fp-ts/lib/Option.js'
import { INT64_MAX, type NewPet, type Pet, type PetId, type PetStore } from '../../core/index.js'
import { newPet, petStatus, positiveInt64 } from './arbitraries.js'
import { ok, type FreshStore, type Suite } from './suite.js'

/** The model, checked on generated pets and queries. */
export const petStoreProperties = (
  { store, it, properties }: Suite<PetStore>,
  freshStore: () => Promise<FreshStore<PetStore>>,
): void => {
  it('round-trips categoryId exactly over the int64 range (property)', async () => {
    await fc.assert(
      fc.asyncProperty(positiveInt64(), async (categoryId) => {
        const stored = await ok(store().insertPet({ name: 'n', categoryId } as NewPet))
        assert.equal(O.toUndefined(await ok(store().findPet(stored.id)))?.categoryId, categoryId)
      }),
      { numRuns: properties },
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
      { numRuns: properties },
    )
  })
}
