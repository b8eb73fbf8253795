import assert from 'node:assert/strict'
import * as E from 'fp-ts/lib/Either.js'
import * as O from 'fp-ts/lib/Option.js'
import {
  PET_NAME_MAX_LENGTH,
  type NewPet,
  type PetId,
  type PetStore,
  type UnreadablePet,
} from '../../core/index.js'
import { ok, type FreshStore, type Suite } from './suite.js'

/** Pets as other versions of a store wrote them: what `supports.storedRecords` starts a store with. */
export type StoredRecord = Readonly<Record<string, unknown>>

/** A store that starts with these records, and reports each one it cannot read. */
export type StoreWithRecords = (
  records: ReadonlyArray<StoredRecord>,
  onUnreadablePet: (pet: UnreadablePet) => void,
) => Promise<FreshStore<PetStore>>

const longName = 'L'.repeat(PET_NAME_MAX_LENGTH + 50)
/** Five pets: a field of a later version, a name of a looser rule, one unreadable, two plain. */
const RECORDS: ReadonlyArray<StoredRecord> = [
  { id: 1n, name: 'Later', categoryId: 7n, status: 'available', birthDate: '2026-01-02' },
  { id: 2n, name: longName, categoryId: 7n, status: 'available' },
  { id: 3n, name: 'Broken', categoryId: 'seven', status: 'available' },
  { id: 4n, name: 'Four', categoryId: 7n, status: 'available' },
  { id: 5n, name: 'Five', categoryId: 7n },
]

/**
 * What any version wrote stays readable (`supports.storedRecords`): a field this version does
 * not know is not served, a name valid under another rule is served as stored, and a record no
 * version could have written concerns that pet alone: left out of pages (which still fill up),
 * refused to a find as UnreadablePet, and reported.
 */
export const petStoreStoredRecords = ({ it }: Suite<PetStore>, withRecords: StoreWithRecords) => {
  const using = async (test: (store: PetStore, reported: UnreadablePet[]) => Promise<void>) => {
    const reported: UnreadablePet[] = []
    const { store, dispose } = await withRecords(RECORDS, (pet) => reported.push(pet))
    try {
      await test(store, reported)
    } finally {
      await dispose()
    }
  }

  it('stored records: serves what other versions wrote, without the fields it does not know', () =>
    using(async (store) => {
      assert.deepEqual(
        await ok(store.findPet(1n as PetId)),
        O.some({ id: 1n, name: 'Later', categoryId: 7n, status: 'available' }),
      )
      const found = O.toUndefined(await ok(store.findPet(2n as PetId)))
      assert.equal(found?.name, longName)
    }))

  it('stored records: an unreadable one is left out, pages still fill, a find refuses it', () =>
    using(async (store, reported) => {
      const ids = async (request: Parameters<PetStore['listPetPage']>[0]) =>
        (await ok(store.listPetPage(request))).map((pet) => pet.id)
      assert.deepEqual(await ids({ limit: 3 }), [1n, 2n, 4n])
      assert.deepEqual(await ids({ limit: 2, after: 2n as PetId }), [4n, 5n])
      assert.deepEqual(await ids({ limit: 3, status: 'available' }), [1n, 2n, 4n])
      const find = await store.findPet(3n as PetId)()
      assert.equal(E.isLeft(find) && find.left._tag, 'UnreadablePet')
      assert.ok(reported.length >= 1)
      assert.ok(reported.every((pet) => pet.id === '3' && /categoryId/.test(pet.reason)))
    }))

  it('stored records: a new pet gets an id above every stored one', () =>
    using(async (store) => {
      const pet = await ok(store.insertPet({ name: 'New', categoryId: 1n } as NewPet))
      assert.ok(pet.id > 5n, `got ${pet.id}`)
    }))
}
