import { petStoreContract } from '../../../adapters/testing/index.js'
import { closeSharedClient, freshMongoStorage, requireMongo } from '../../support/mongo.js'

describe('MongoDB adapter', function () {
  let uri: string
  before(function () {
    uri = requireMongo(this)
  })
  after(() => closeSharedClient())

  petStoreContract(
    'mongodb',
    async (options) => {
      const storage = await freshMongoStorage(uri, options)
      return { store: storage.store, dispose: storage.close }
    },
    // No capacity: the MongoDB store is full only when the int64 ids run out.
    { supports: { capacity: false, storedRecords: true } },
  )
})
