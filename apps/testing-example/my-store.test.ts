import { afterEach, beforeEach, describe, it } from 'node:test'
import { createInMemoryPetStore } from 'animal-store/in-memory'
import { petStoreContract } from 'animal-store/testing'

// Put your own adapter where createInMemoryPetStore is: the suite needs a fresh, empty store
// for each test, and disposes of it afterwards.
petStoreContract(
  'my store',
  async () => ({ store: createInMemoryPetStore(), dispose: async () => {} }),
  { test: { describe, it, beforeEach, afterEach } },
)
