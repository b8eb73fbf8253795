import { expect } from 'chai'
import * as E from 'fp-ts/lib/Either.js'
import {
  connectMongo,
  createMongoApiKeyRegistry,
  PETS,
  type MongoStorage,
} from '../../../adapters/mongodb/index.js'
import type { NewPet, PetId } from '../../../core/index.js'
import { freshDatabaseName, requireMongo, uriWithDatabase } from '../../support/mongo.js'
import { startTcpProxy, type TcpProxy } from '../../support/tcp-proxy.js'

const BUDGET_MS = 400
/** The bound docs/mongodb.md states: twice the budget (a command sent may answer), plus scheduling delay. */
const BOUND_MS = 2 * BUDGET_MS
const SLACK_MS = 600

describe('MongoDB adapter: one deadline per store call', function () {
  this.timeout(30_000)
  let proxy: TcpProxy
  let storage: MongoStorage
  let database: string

  const connectThroughProxy = async (query = '') => {
    const uri = new URL(requireMongo(this.ctx))
    proxy = await startTcpProxy(Number(uri.port))
    database = freshDatabaseName()
    uri.host = `127.0.0.1:${proxy.port}`
    storage = await connectMongo({
      uri: uriWithDatabase(uri.toString(), database) + query,
      timeoutMs: BUDGET_MS,
      startupTimeoutMs: 5000,
    })
  }
  beforeEach(() => connectThroughProxy())
  afterEach(async () => {
    await proxy.close()
    await storage.close()
  })

  const timed = async <A>(task: () => Promise<A>) => {
    const started = performance.now()
    const result = await task()
    return { result, ms: performance.now() - started }
  }

  it('ends every call within twice its budget when the database stops answering mid-way', async () => {
    const pet = { name: 'Rex', categoryId: 1n } as NewPet
    expect(E.isRight(await storage.store.insertPet(pet)())).to.equal(true)
    proxy.stall()
    const calls = await Promise.all([
      ...Array.from({ length: 20 }, () => timed(storage.store.insertPet(pet))),
      timed(storage.store.findPet(1n as PetId)),
      timed(storage.store.listPetPage({ limit: 5 })),
    ])
    for (const { result, ms } of calls) {
      expect(result).to.deep.include({ _tag: 'Left' })
      expect(ms).to.be.below(BOUND_MS + SLACK_MS)
    }
    expect(JSON.stringify(calls[0]?.result)).to.include('StoreUnavailable')
  })

  it('bounds the read of minted API keys like a store call', async () => {
    // A client whose own timeouts are far longer (socket 6 s): only the key read's deadline ends it.
    const slowClient = new URL(uriWithDatabase(requireMongo(this.ctx), database))
    slowClient.host = `127.0.0.1:${proxy.port}`
    const other = await connectMongo({
      uri: slowClient.toString(),
      timeoutMs: 3000,
      startupTimeoutMs: 5000,
    })
    try {
      const registry = createMongoApiKeyRegistry(other.db, { timeoutMs: BUDGET_MS })
      expect(E.isRight(await registry.listKeys()())).to.equal(true)
      proxy.stall()
      const { result, ms } = await timed(registry.listKeys())
      expect(JSON.stringify(result)).to.include('StoreUnavailable')
      expect(ms).to.be.below(BOUND_MS + SLACK_MS)
    } finally {
      await other.close()
    }
  })

  it('ends within the budget when every round trip is slow and every id collides, retries included', async () => {
    // A counter far behind the ids in use (as after a failover): creates collide, retry, catch up.
    await storage.db
      .collection<{ _id: bigint }>(PETS)
      .insertMany(Array.from({ length: 3000 }, (_, i) => ({ _id: BigInt(i + 1) })))
    proxy.delay(120)
    const creates = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        timed(storage.store.insertPet({ name: `p${i}`, categoryId: 1n } as NewPet)),
      ),
    )
    for (const { ms } of creates) expect(ms).to.be.below(BOUND_MS + SLACK_MS)
    expect(creates.some(({ result }) => E.isLeft(result))).to.equal(true)
  })

  it('sends nothing for a call that runs out of time while it waits for a connection', async () => {
    await storage.close()
    await proxy.close()
    await connectThroughProxy('?maxPoolSize=1')
    const warm = await storage.store.insertPet({ name: 'w', categoryId: 1n } as NewPet)()
    expect(E.isRight(warm)).to.equal(true)
    // A slow read holds the only connection past the budget of the creates queued behind it.
    proxy.delay(BUDGET_MS + 100)
    const read = storage.store.listPetPage({ limit: 5 })()
    await new Promise((resolve) => setTimeout(resolve, 20))
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        storage.store.insertPet({ name: `q${i}`, categoryId: 1n } as NewPet)(),
      ),
    )
    await read
    await new Promise((resolve) => setTimeout(resolve, 1500))
    proxy.delay(0)
    expect(results.every(E.isLeft)).to.equal(true)
    expect(await storage.db.collection(PETS).countDocuments({})).to.equal(1)
  })
})
