import { expect } from 'chai'
import { MongoClient, type CommandStartedEvent } from 'mongodb'
import {
  connectMongo,
  createMongoPetStore,
  IDEMPOTENCY_KEYS,
  PETS,
} from '../../../adapters/mongodb/index.js'
import * as E from 'fp-ts/lib/Either.js'
import type { NewPet, PetId } from '../../../core/index.js'
import {
  closeSharedClient,
  freshDatabaseName,
  requireMongo,
  sharedClient,
  uriWithDatabase,
} from '../../support/mongo.js'

/** A pet document as the tests write it, older shapes included. */
type Stored = { _id: bigint; name: string; categoryId: bigint; _op?: string; _idem?: string }

describe('MongoDB adapter: indexes and query shape', function () {
  let uri: string
  before(function () {
    uri = requireMongo(this)
  })

  it('creates the id, {status, _id}, sparse unique _idem and key expiry indexes at start, idempotently, in the database of the URI', async () => {
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
      const idem = indexes.find((index) => index.name === '_idem_1')
      expect(idem).to.deep.include({ key: { _idem: 1 }, unique: true })
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

  it('starts three instances at once on one fresh database: every one connects, the indexes exist once', async () => {
    for (let round = 0; round < 3; round++) {
      const database = freshDatabaseName()
      const options = {
        uri: uriWithDatabase(uri, database),
        timeoutMs: 3000,
        startupTimeoutMs: 8000,
      }
      const started = await Promise.allSettled([1, 2, 3].map(() => connectMongo(options)))
      const up = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []))
      try {
        expect(started.filter((s) => s.status === 'rejected').map((s) => String(s))).to.deep.equal(
          [],
        )
        const names = (await up[0]!.db.collection(PETS).listIndexes().toArray()).map((i) => i.name)
        expect(names.sort()).to.deep.equal(['_id_', '_idem_1', 'status_1__id_1'])
      } finally {
        await up[0]?.db.dropDatabase()
        await Promise.all(up.map((s) => s.close()))
      }
    }
  })

  it('builds on pets stored before it, that share one _op or have none; keyless creates stay outside the index', async () => {
    const database = freshDatabaseName()
    const client = await sharedClient(uri)
    const db = client.db(database)
    // What older deployments and the load runner's seed hold: one _op repeated, or no _op at all.
    await db.collection<Stored>(PETS).insertMany([
      { _id: 1n, name: 'a', categoryId: 1n, _op: 'seed' },
      { _id: 2n, name: 'b', categoryId: 1n, _op: 'seed' },
      { _id: 3n, name: 'c', categoryId: 1n },
      { _id: 4n, name: 'd', categoryId: 1n },
    ])
    await db
      .collection<{ _id: string; seq: bigint }>('counters')
      .updateOne({ _id: 'pets' }, { $set: { seq: 4n } }, { upsert: true })
    const storage = await connectMongo({
      uri: uriWithDatabase(uri, database),
      timeoutMs: 3000,
      startupTimeoutMs: 5000,
    })
    try {
      const names = (await db.collection(PETS).listIndexes().toArray()).map((i) => i.name)
      expect(names).to.include('_idem_1')
      const rex = { name: 'Rex', categoryId: 7n } as NewPet
      const run = async <A>(task: () => Promise<E.Either<unknown, A>>) => {
        const result = await task()
        if (E.isLeft(result)) throw new Error(JSON.stringify(result.left))
        return result.right
      }
      const keyless = [
        await run(storage.store.insertPet(rex)),
        await run(storage.store.insertPet(rex)),
      ]
      const keyed = await Promise.all(
        [1, 2, 3].map(() => run(storage.store.insertPet(rex, 'op-x'))),
      )
      expect(new Set(keyed.map((p) => p.id)).size).to.equal(1)
      const docs = await db
        .collection<Stored>(PETS)
        .find({ _id: { $gt: 4n } })
        .toArray()
      expect(docs).to.have.length(3)
      for (const pet of keyless)
        expect(docs.find((d) => d._id === pet.id)).to.not.have.property('_idem')
      expect(docs.find((d) => d._id === keyed[0]!.id)).to.have.property('_idem', 'op-x')
    } finally {
      await db.dropDatabase()
      await storage.close()
      await closeSharedClient()
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
