import assert from 'node:assert/strict'
import * as O from 'fp-ts/lib/Option.js'
import {
  INT64_MAX,
  LIST_LIMITS,
  type NewPet,
  type Pet,
  type PetId,
  type PetStore,
} from '../../core/index.js'
import { ok, type Suite } from './suite.js'

/** Storing and finding pets, ids, and pages as large as the service asks for. */
export const petStoreBasics = ({ store, it }: Suite<PetStore>): void => {
  const insertAll = async (pets: ReadonlyArray<NewPet>): Promise<Pet[]> => {
    const stored: Pet[] = []
    for (const pet of pets) stored.push(await ok(store().insertPet(pet)))
    return stored
  }

  it('stores a pet under a new id and finds it exactly as given', async () => {
    const pet = { name: 'Rex 🐈', categoryId: INT64_MAX, status: 'sold' } as NewPet
    const stored = await ok(store().insertPet(pet))
    assert.deepEqual(stored, { ...pet, id: stored.id })
    assert.deepEqual(await ok(store().findPet(stored.id)), O.some(stored))
    // Names are kept exactly: spaces at either end included.
    const spaced = { name: ' \u00a0Rex  ', categoryId: 1n } as NewPet
    const kept = await ok(store().insertPet(spaced))
    assert.deepEqual(O.toUndefined(await ok(store().findPet(kept.id)))?.name, spaced.name)
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
    assert.deepEqual(await ok(store().listPetPage({ limit: pageSize })), stored.slice(0, pageSize))
    const last = stored[pageSize - 1] as Pet
    assert.deepEqual(
      await ok(store().listPetPage({ limit: pageSize, after: last.id })),
      stored.slice(pageSize),
    )
    const available = stored.filter((p) => p.status === 'available')
    assert.deepEqual(
      await ok(store().listPetPage({ limit: pageSize, status: 'available' })),
      available.slice(0, pageSize),
    )
  })

  it('keeps a pet without status without one', async () => {
    const stored = await ok(store().insertPet({ name: 'Tom', categoryId: 3n } as NewPet))
    const found = O.toUndefined(await ok(store().findPet(stored.id)))
    assert.deepEqual(found, { id: stored.id, name: 'Tom', categoryId: 3n })
    assert.equal(found !== undefined && 'status' in found, false)
  })

  it('finds nothing for an id never handed out', async () => {
    assert.deepEqual(await ok(store().findPet(INT64_MAX as PetId)), O.none)
    assert.deepEqual(await ok(store().findPet(1n as PetId)), O.none)
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
    const stored = await Promise.all(pets.map((pet) => ok(store().insertPet(pet))))
    assert.equal(new Set(stored.map((p) => p.id)).size, 60)
    for (const pet of stored) assert.deepEqual(await ok(store().findPet(pet.id)), O.some(pet))
  })
}
