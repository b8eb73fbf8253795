import { createInMemoryIdempotencyStore } from '../../../adapters/in-memory/index.js'
import { idempotencyStoreContract } from '../../../adapters/testing/index.js'

idempotencyStoreContract(
  'in-memory',
  async (options) => ({
    store: createInMemoryIdempotencyStore(options),
    dispose: async () => {},
  }),
  { properties: 100, supports: { atomicTakeOver: true, capacity: true } },
)
