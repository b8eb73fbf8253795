/** In-memory adapters: the zero-set-up default of the service, and handy for embedders' tests. */
export {
  createInMemoryPetStore,
  IN_MEMORY_CAPACITY_DEFAULT,
  type InMemoryPetStoreOptions,
} from './pet-store.js'
export { createInMemoryApiKeys, keyIdOf } from './api-keys.js'
