import { idempotencyStoreContract } from '../../../adapters/testing/index.js'
import { closeSharedClient, freshMongoStorage, requireMongo } from '../../support/mongo.js'

describe('MongoDB adapter: idempotency keys', function () {
  let uri: string
  before(function () {
    uri = requireMongo(this)
  })
  after(() => closeSharedClient())

  idempotencyStoreContract(
    'mongodb',
    async () => {
      const storage = await freshMongoStorage(uri)
      if (storage.idempotencyStore === undefined) throw new Error('no idempotency store on MongoDB')
      return { store: storage.idempotencyStore, dispose: storage.close }
    },
    // The test server (FerretDB on SQLite) runs a conditional updateOne as a read then a write:
    // concurrent take-overs of one lease can both win there, so the run does not claim atomicity.
    { supports: { atomicTakeOver: false } },
  )
})
