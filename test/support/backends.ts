import { createInMemoryPetStore } from '../../adapters/in-memory/index.js'
import type { PetStoreFactoryOptions } from '../../adapters/testing/index.js'
import { inMemoryStorage, processLocalStorage, type Storage } from '../../apps/server/storage.js'
import { closeSharedClient, freshMongoStorage, requireMongo, testMongoUri } from './mongo.js'

/** Pets other versions stored, for a store to start with (the contract's `storedRecords`). */
export type StoredData = Pick<PetStoreFactoryOptions, 'records' | 'onUnreadablePet'>

/** The stores the HTTP contract is proven on, each opened fresh for a suite. */
const OPENERS = {
  'in-memory': async (stored?: StoredData) =>
    stored === undefined ? inMemoryStorage() : processLocalStorage(createInMemoryPetStore(stored)),
  mongodb: async (stored?: StoredData) => {
    const uri = testMongoUri()
    if (uri === undefined) throw new Error('no MongoDB test server')
    return freshMongoStorage(uri, stored)
  },
} satisfies Record<string, (stored?: StoredData) => Promise<Storage>>

export type Backend = keyof typeof OPENERS
export const BACKENDS = Object.keys(OPENERS) as ReadonlyArray<Backend>

export const storageFor = (backend: Backend, stored?: StoredData): Promise<Storage> =>
  OPENERS[backend](stored)

/** Defines the suite once per backend; the MongoDB one needs the test server. */
export const forEachBackend = (title: string, body: (backend: Backend) => void): void => {
  for (const backend of BACKENDS) {
    describe(`${title} [${backend}]`, function () {
      if (backend === 'mongodb')
        before(function () {
          requireMongo(this)
        })
      body(backend)
      // Registered last, so it runs after the suite's own hooks have dropped their databases.
      if (backend === 'mongodb') after(() => closeSharedClient())
    })
  }
}
