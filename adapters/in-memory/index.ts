/**
 * In-memory adapters: the zero-set-up default of the service, and handy for embedders' tests.
 *
 * @module animal-store/in-memory
 */
export {
  createInMemoryIdempotencyStore,
  type InMemoryIdempotencyStoreOptions,
} from './idempotency-store.js'
export {
  createInMemoryPetStore,
  IN_MEMORY_CAPACITY_DEFAULT,
  type InMemoryPetStoreOptions,
} from './pet-store.js'
export {
  createInMemoryApiKeys,
  createKeyRing,
  bootstrapKey,
  keyIdOf,
  type KeyRing,
} from './api-keys.js'
export { createCachedApiKeys, type CachedApiKeysOptions } from './cached-api-keys.js'
export { digestOf } from './key-digest.js'
