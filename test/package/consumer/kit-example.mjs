// my-stores.test.mjs: run with `node --test my-stores.test.mjs` (or under mocha, without `test`).
import { afterEach, beforeEach, describe, it } from 'node:test'
import { createInMemoryIdempotencyStore, createInMemoryPetStore } from 'animal-store/in-memory'
import { idempotencyStoreContract, petStoreContract } from 'animal-store/testing'

const test = { describe, it, beforeEach, afterEach }

// The factory gives a fresh, empty store for each test, and how to dispose of it.
petStoreContract(
  'my pet store',
  async (options) => ({ store: createInMemoryPetStore(options), dispose: async () => {} }),
  { test, supports: { capacity: true } },
)

idempotencyStoreContract(
  'my idempotency store',
  async () => ({ store: createInMemoryIdempotencyStore(), dispose: async () => {} }),
  { test, supports: { atomicTakeOver: true } },
)
