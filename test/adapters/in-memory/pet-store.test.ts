import { createInMemoryPetStore } from '../../../adapters/in-memory/index.js'
import { petStoreContract } from '../../../adapters/testing/index.js'

petStoreContract(
  'in-memory',
  async () => ({ store: createInMemoryPetStore(), dispose: async () => {} }),
  { properties: 100 },
)
