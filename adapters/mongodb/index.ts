/**
 * The MongoDB adapters: `connectMongo` opens a client and gives the pet store, the API key
 * registry and the idempotency store on one database. Needs mongodb (an optional peer dependency).
 *
 * @module animal-store/mongodb
 */
export { databaseOf, DEFAULT_DATABASE } from './connection-string.js'
export {
  connectMongo,
  InvalidMongoUri,
  mongoUriProblem,
  type MongoOptions,
  type MongoStorage,
} from './connect.js'
export {
  createMongoPetStore,
  PETS,
  COUNTERS,
  ID_BLOCKS,
  type MongoPetStoreOptions,
} from './pet-store.js'
export { ensureIndexes, PET_INDEXES } from './indexes.js'
export { checkStoredPets, type StoredPetFinding } from './store-check.js'
export { createMongoApiKeyRegistry } from './api-keys.js'
export { API_KEYS_COLLECTION, API_KEYS_VERSION_COLLECTION } from './key-documents.js'
export { createMongoIdempotencyStore, IDEMPOTENCY_KEYS } from './idempotency-store.js'
export { ensureIdempotencyIndexes, IDEMPOTENCY_TTL_INDEX } from './idempotency-indexes.js'
export type { IndexSpec } from './index-build.js'
