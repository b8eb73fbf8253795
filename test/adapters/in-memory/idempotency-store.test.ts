import { createInMemoryIdempotencyStore } from '../../../adapters/in-memory/index.js'
import { idempotencyStoreContract } from '../../../adapters/testing/index.js'

idempotencyStoreContract(
  'in-memory',
  async () => ({ store: createInMemoryIdempotencyStore(), dispose: async () => {} }),
  { properties: 100, supports: { atomicTakeOver: true } },
)
