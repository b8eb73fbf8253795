import assert from 'node:assert/strict'
import * as O from 'fp-ts/lib/Option.js'
import type { NewPet, PetStore } from '../../core/index.js'
import { ok, type Suite } from './suite.js'

const rex = { name: 'Rex', categoryId: 7n, status: 'available' } as NewPet
const count = async (store: PetStore): Promise<number> =>
  (await ok(store.listPetPage({ limit: 100 }))).length

/**
 * The keyed insert (`insertPet(pet, op)`): what makes a keyed create happen at most once, however
 * often it is retried or raced. A store that ignores `op` stores a pet per retry.
 */
export const petStoreKeyedInsert = ({ store, it }: Suite<PetStore>): void => {
  it('keyed insert: stores one pet for an op inserted twice, and answers it both times', async () => {
    const first = await ok(store().insertPet(rex, 'op-1'))
    const second = await ok(store().insertPet(rex, 'op-1'))
    assert.deepEqual(second, first)
    assert.deepEqual(await ok(store().findPet(first.id)), O.some(first))
    assert.equal(await count(store()), 1)
  })

  it('keyed insert: stores one pet for an op inserted concurrently', async () => {
    const pets = await Promise.all(
      Array.from({ length: 6 }, () => ok(store().insertPet(rex, 'op-2'))),
    )
    assert.equal(new Set(pets.map((p) => p.id)).size, 1)
    assert.equal(await count(store()), 1)
  })

  it('keyed insert: stores a pet per op, and a pet per insert without one', async () => {
    const ids = [
      (await ok(store().insertPet(rex, 'op-3'))).id,
      (await ok(store().insertPet(rex, 'op-4'))).id,
      (await ok(store().insertPet(rex))).id,
      (await ok(store().insertPet(rex))).id,
    ]
    assert.equal(new Set(ids).size, 4)
    assert.equal(await count(store()), 4)
  })

  it('keyed insert: answers an op with its own pet after other inserts', async () => {
    const first = await ok(store().insertPet(rex, 'op-5'))
    await ok(store().insertPet({ name: 'Tom', categoryId: 1n } as NewPet, 'op-6'))
    await ok(store().insertPet({ name: 'Kit', categoryId: 2n } as NewPet))
    assert.deepEqual(await ok(store().insertPet(rex, 'op-5')), first)
    assert.equal(await count(store()), 3)
  })
}
