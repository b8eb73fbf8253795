import assert from 'node:assert/strict'
import * as E from 'fp-ts/lib/Either.js'
import type { NewPet, PetStore } from '../../core/index.js'
import { ok, type FreshStore, type Suite } from './suite.js'

const pet = { name: 'Rex', categoryId: 1n } as NewPet

/**
 * A bounded store (`supports.capacity`): full, it refuses with StoreFull and stores nothing, so
 * a keyed create refused 507 may forget its key; an op already stored is still answered.
 */
export const petStoreCapacity = (
  { it }: Suite<PetStore>,
  bounded: (capacity: number) => Promise<FreshStore<PetStore>>,
): void => {
  it('capacity: refuses a pet past it with StoreFull, and stores nothing', async () => {
    const { store, dispose } = await bounded(2)
    try {
      const kept = await ok(store.insertPet(pet, 'op-kept'))
      await ok(store.insertPet(pet))
      const refused = await store.insertPet(pet, 'op-refused')()
      assert.equal(E.isLeft(refused) && refused.left._tag, 'StoreFull')
      assert.equal((await ok(store.listPetPage({ limit: 100 }))).length, 2)
      assert.deepEqual(await ok(store.insertPet(pet, 'op-kept')), kept)
    } finally {
      await dispose()
    }
  })
}
