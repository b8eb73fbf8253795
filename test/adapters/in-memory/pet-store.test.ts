import { createInMemoryPetStore } from '../../../adapters/in-memory/index.js'
import { petStoreContract } from '../../contracts/pet-store.contract.js'

petStoreContract(
  'in-memory',
  async () => ({ store: createInMemoryPetStore(), dispose: async () => {} }),
  { properties: 100 },
)
