/** In-memory adapters: the zero-set-up default of the service, and handy for embedders' tests. */
export { createInMemoryPetStore } from './pet-store.js'
export { createInMemoryApiKeys, keyIdOf } from './api-keys.js'
