import { inMemoryStorage, type Storage } from '../../apps/server/storage.js'
import { closeSharedClient, freshMongoStorage, requireMongo, testMongoUri } from './mongo.js'

/** The stores the HTTP contract is proven on, each opened fresh for a suite. */
const OPENERS = {
  'in-memory': async () => inMemoryStorage(),
  mongodb: async () => {
    const uri = testMongoUri()
    if (uri === undefined) throw new Error('no MongoDB test server')
    return freshMongoStorage(uri)
  },
} satisfies Record<string, () => Promise<Storage>>

export type Backend = keyof typeof OPENERS
export const BACKENDS = Object.keys(OPENERS) as ReadonlyArray<Backend>

export const storageFor = (backend: Backend): Promise<Storage> => OPENERS[backend]()

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
