/** A store that ignores `after` when listing: the contract must catch it (see the test beside). */
import { afterEach, beforeEach, describe, it } from 'node:test'
import { createInMemoryPetStore } from '../../../adapters/in-memory/index.js'
import { petStoreContract } from '../../../adapters/testing/index.js'

petStoreContract(
  'ignores after',
  async () => {
    const store = createInMemoryPetStore()
    const listPetPage: typeof store.listPetPage = ({ after: _after, ...query }) =>
      store.listPetPage(query)
    return { store: { ...store, listPetPage }, dispose: async () => {} }
  },
  { test: { describe, it, beforeEach, afterEach } },
)
