/**
 * Stores that break the model, one per run (`BROKEN`): the contract must catch each (see the
 * test beside). `after`: ignores `after` when listing; `cap`: serves at most 50 pets a page;
 * `trim`: trims names.
 */
import { afterEach, beforeEach, describe, it } from 'node:test'
import { createInMemoryPetStore } from '../../../adapters/in-memory/index.js'
import { petStoreContract } from '../../../adapters/testing/index.js'
import type { PetStore } from '../../../core/index.js'

const broken: Record<string, (store: PetStore) => PetStore> = {
  after: (store) => ({
    ...store,
    listPetPage: ({ after: _after, ...query }) => store.listPetPage(query),
  }),
  cap: (store) => ({
    ...store,
    listPetPage: (query) => store.listPetPage({ ...query, limit: Math.min(query.limit, 50) }),
  }),
  trim: (store) => ({
    ...store,
    insertPet: (pet, op) =>
      store.insertPet({ ...pet, name: pet.name.trim() as typeof pet.name }, op),
  }),
}
const breaking = broken[process.env.BROKEN ?? 'after']
if (breaking === undefined) throw new Error(`BROKEN must be one of ${Object.keys(broken)}`)

petStoreContract(
  `broken: ${process.env.BROKEN}`,
  async () => ({ store: breaking(createInMemoryPetStore()), dispose: async () => {} }),
  { test: { describe, it, beforeEach, afterEach } },
)
