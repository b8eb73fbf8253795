import { expect } from 'chai'
import { MongoClient, type CommandStartedEvent } from 'mongodb'
import {
  connectMongo,
  createMongoPetStore,
  IDEMPOTENCY_KEYS,
  PETS,
} from '../../../adapters/mongodb/index.js'
import type { PetId } from '../../../core/index.js'
import { freshDatabaseName, requireMongo, uriWithDatabase } from '../../support/mongo.js'

describe('MongoDB adapter: indexes and query shape', function () {
  let uri: string
  before(function () {
    uri = requireMongo(this)
  })

  it('creates the id, {status, _id}, unique _op and key expiry indexes at start, idempotently, in the database of the URI', async () => {
    const database = freshDatabaseName()
    const options = { uri: uriWithDatabase(uri, database), timeoutMs: 3000, startupTimeoutMs: 5000 }
    const first = await connectMongo(options)
    const second = await connectMongo(options)
    try {
      expect(first.db.databaseName).to.equal(database)
      const indexes = await second.db.collection(PETS).listIndexes().toArray()
      const keys = indexes.map((index) => JSON.stringify(index.key))
      expect(keys).to.include('{"_id":1}')
      expect(keys).to.include('{"status":1,"_id":1}')
      expect(indexes.find((index) => index.name === '_op_1')).to.deep.include({
        key: { _op: 1 },
        unique: true,
      })
      expect(indexes).to.have.length(3)
      // A TTL index where the server has them (MongoDB), else a plain one for the purge (FerretDB).
      const expiry = (await second.db.collection(IDEMPOTENCY_KEYS).listIndexes().toArray()).find(
        (index) => JSON.stringify(index.key) === '{"expiresAt":1}',
      )
      expect(expiry?.name).to.be.oneOf(['expiresAt_ttl', 'expiresAt_1'])
      if (expiry?.name === 'expiresAt_ttl') expect(expiry.expireAfterSeconds).to.equal(0)
    } finally {
      await first.db.dropDatabase()
      await first.close()
      await second.close()
    }
  })

  it('lists with equality on status, range and sort on _id, and a limit, so the index serves it', async () => {
    const commands: CommandStartedEvent[] = []
    const client = await new MongoClient(uri, {
      useBigInt64: true,
      monitorCommands: true,
    }).connect()
    client.on('commandStarted', (event) => commands.push(event))
    const db = client.db(freshDatabaseName())
    try {
      const store = createMongoPetStore(db)
      await store.listPetPage({ status: 'sold', after: 5n as PetId, limit: 3 })()
      await store.listPetPage({ limit: 4 })()
      const finds = commands
        .filter((c) => c.commandName === 'find')
        .map((c): Record<string, unknown> => ({
          ...c.command,
          sort: Object.fromEntries(c.command.sort as Map<string, number>),
        }))
      expect(finds[0]).to.deep.include({
        filter: { status: 'sold', _id: { $gt: 5n } },
        sort: { _id: 1 },
        limit: 3,
      })
      expect(finds[1]).to.deep.include({ filter: {}, sort: { _id: 1 }, limit: 4 })
      expect(finds.every((f) => f.skip === undefined)).to.equal(true)
    } finally {
      await db.dropDatabase()
      await client.close()
    }
  })
})
