import type { OnUnreadablePet, PetStore } from '../../core/index.js'
import { petStoreBasics } from './pet-store-basics.js'
import { petStoreCapacity } from './pet-store-capacity.js'
import { petStoreKeyedInsert } from './pet-store-keyed-insert.js'
import { petStoreProperties } from './pet-store-properties.js'
import { petStoreStoredRecords, type StoredRecord } from './pet-store-stored-records.js'
import { defineSuite, type ContractOptions, type FreshStore } from './suite.js'

/** What the contract may ask of the factory, as far as the manifest says the store supports it. */
export type PetStoreFactoryOptions = {
  /** At most this many pets (asked only when `supports.capacity`). */
  readonly capacity?: number
  /**
   * Pets the store starts with, as another version wrote them (asked only when
   * `supports.storedRecords`): each with its `id`, perhaps with fields this version does not know.
   */
  readonly records?: ReadonlyArray<StoredRecord>
  /** Where the store reports a stored pet it cannot read (with `records`). */
  readonly onUnreadablePet?: OnUnreadablePet
}

/** A fresh, empty pet store, and how to dispose of it. */
export type StoreFactory = (options?: PetStoreFactoryOptions) => Promise<FreshStore<PetStore>>

/**
 * What the store supports beyond the port's core, the only way the contract tells stores apart.
 * Every feature is off unless declared.
 */
export type PetStoreSupports = {
  /** The factory honours `capacity`: a full store refuses with StoreFull and stores nothing. */
  readonly capacity?: boolean
  /** The factory honours `records` and `onUnreadablePet`: data of other versions stays readable. */
  readonly storedRecords?: boolean
}

/** The options of {@link petStoreContract}. */
export type PetStoreContractOptions = ContractOptions & {
  /** The store's manifest; nothing optional is tested when absent. */
  readonly supports?: PetStoreSupports
}

/**
 * The model every implementation of the PetStore port must match, the keyed insert included:
 * one call registers the whole suite (a describe block) with the runner. Assertions use
 * node:assert, so any runner works.
 *
 * @example
 * ```ts
 * // my-pet-store.test.ts: run with `node --test` (or under mocha, without `test`).
 * import { afterEach, beforeEach, describe, it } from 'node:test'
 * import { createInMemoryPetStore } from 'animal-store/in-memory'
 * import { petStoreContract } from 'animal-store/testing'
 *
 * // The factory gives a fresh, empty store for each test, and how to dispose of it.
 * petStoreContract(
 *   'my pet store',
 *   async (options) => ({ store: createInMemoryPetStore(options), dispose: async () => {} }),
 *   { test: { describe, it, beforeEach, afterEach }, supports: { capacity: true } },
 * )
 * ```
 */
export const petStoreContract = (
  name: string,
  freshStore: StoreFactory,
  options: PetStoreContractOptions = {},
): void =>
  defineSuite(
    `PetStore contract: ${name}`,
    () => freshStore(),
    options,
    (suite) => {
      petStoreBasics(suite)
      petStoreKeyedInsert(suite)
      petStoreProperties(suite, () => freshStore())
      if (options.supports?.capacity === true)
        petStoreCapacity(suite, (capacity) => freshStore({ capacity }))
      if (options.supports?.storedRecords === true)
        petStoreStoredRecords(suite, (records, onUnreadablePet) =>
          freshStore({ records, onUnreadablePet }),
        )
    },
  )
