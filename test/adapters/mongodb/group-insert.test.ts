import { expect } from 'chai'
import * as E from 'fp-ts/lib/Either.js'
import { MongoClient, type Db } from 'mongodb'
import { createMongoPetStore, ensureIndexes, PETS } from '../../../adapters/mongodb/index.js'
import type { NewPet, Pet, PetStore } from '../../../core/index.js'
import { freshDatabaseName, requireMongo } from '../../support/mongo.js'
import { startTcpProxy, type TcpProxy } from '../../support/tcp-proxy.js'

type Insert = { readonly documents: number; readonly writeErrors: number }

const create = (store: PetStore, name: string) =>
  store.insertPet({ name, categoryId: 1n, status: 'available' } as NewPet)()
const createdAll = async (store: PetStore, names: ReadonlyArray<string>): Promise<Pet[]> =>
  (await Promise.all(names.map((name) => create(store, name)))).map((result) => {
    if (E.isLeft(result)) throw new Error(JSON.stringify(result.left))
    return result.right
  })
const names = (count: number, prefix: string) =>
  Array.from({ length: count }, (_, i) => `${prefix}${i}`)

describe('MongoDB adapter: creates inserted in groups', function () {
  this.timeout(30_000)
  let proxy: TcpProxy
  let client: MongoClient
  let db: Db
  const inserts: Insert[] = []
  /** The number of documents of every insert sent, answered or not. */
  const started: number[] = []

  beforeEach(async function () {
    const uri = new URL(requireMongo(this))
    proxy = await startTcpProxy(Number(uri.port))
    uri.host = `127.0.0.1:${proxy.port}`
    client = await new MongoClient(uri.toString(), {
      useBigInt64: true,
      monitorCommands: true,
      socketTimeoutMS: 600,
    }).connect()
    const sizes = new Map<number, number>()
    client.on('commandStarted', (e) => {
      const command = e.command as { insert?: string; documents?: unknown[] }
      if (command.insert !== PETS) return
      sizes.set(e.requestId, command.documents?.length ?? 0)
      started.push(command.documents?.length ?? 0)
    })
    client.on('commandSucceeded', (e) => {
      const documents = sizes.get(e.requestId)
      const reply = e.reply as { writeErrors?: unknown[] }
      if (documents !== undefined)
        inserts.push({ documents, writeErrors: reply.writeErrors?.length ?? 0 })
    })
    db = client.db(freshDatabaseName())
    inserts.length = 0
    started.length = 0
  })
  afterEach(async () => {
    proxy.delay(0)
    await db.dropDatabase()
    await client.close()
    await proxy.close()
  })

  it('inserts the creates that arrive while an insert is under way together, each under its own id', async () => {
    const store = createMongoPetStore(db)
    await createdAll(store, ['warm'])
    inserts.length = 0
    proxy.delay(100)
    const first = createdAll(store, ['g'])
    await new Promise((resolve) => setTimeout(resolve, 30))
    const rest = createdAll(store, names(39, 'g'))
    const pets = [...(await first), ...(await rest)]
    expect(new Set(pets.map((p) => p.id)).size).to.equal(40)
    expect(inserts).to.deep.equal([
      { documents: 1, writeErrors: 0 },
      { documents: 39, writeErrors: 0 },
    ])
    const stored = await db
      .collection<{ _id: bigint; name: string }>(PETS)
      .find({}, { projection: { name: 1 } })
      .toArray()
    expect(new Map(stored.map((doc) => [doc.name, doc._id]))).to.deep.equal(
      new Map([['warm', 1n], ...pets.map((p) => [p.name, p.id] as const)]),
    )
  })

  it('retries only the creates of a group whose id another writer holds, with fresh ids', async () => {
    // Ids 3 and 6 are taken by someone else; this store's first block is 1..1000.
    const others = db.collection<{ _id: bigint; name: string }>(PETS)
    await others.insertMany([
      { _id: 3n, name: 'other 3' },
      { _id: 6n, name: 'other 6' },
    ])
    const store = createMongoPetStore(db)
    const pets = await createdAll(store, names(10, 'r'))
    const ids = pets.map((p) => p.id)
    expect(new Set(ids).size).to.equal(10)
    expect(ids).to.not.include(3n).and.not.include(6n)
    expect(inserts.filter((insert) => insert.writeErrors > 0)).to.deep.equal([
      { documents: 10, writeErrors: 2 },
    ])
    // The block that collided is abandoned: the two retried creates get ids of a new one.
    expect(ids.filter((id) => id > 1000n)).to.have.length(2)
    expect((await others.findOne({ _id: 3n }))?.name).to.equal('other 3')
    expect(await others.countDocuments({})).to.equal(12)
  })

  it('answers the keyed creates of one op in a group with the one pet stored for it', async () => {
    await ensureIndexes(db)
    const store = createMongoPetStore(db)
    const keyed = (name: string) =>
      store.insertPet({ name, categoryId: 1n, status: 'available' } as NewPet, 'op-k')()
    const results = await Promise.all([
      keyed('k1'),
      create(store, 'u1'),
      keyed('k2'),
      create(store, 'u2'),
    ])
    const pets = results.map((result) => {
      if (E.isLeft(result)) throw new Error(JSON.stringify(result.left))
      return result.right
    })
    expect(inserts.map((insert) => insert.documents)).to.deep.equal([4])
    // The second keyed create's document was refused (`_idem`); it answers with the first's pet.
    expect(pets[2]).to.deep.equal(pets[0])
    expect(await db.collection(PETS).countDocuments({})).to.equal(3)
    expect(await db.collection(PETS).countDocuments({ _idem: 'op-k' })).to.equal(1)
  })

  it('never retries under a new id a group whose answer is lost: each pet is stored once', async () => {
    // Budget to spare for retries. The answer to the group's insert is lost (the socket times
    // out before it comes), while any later command would go through at once.
    const store = createMongoPetStore(db, { timeoutMs: 3000 })
    await createdAll(store, ['warm'])
    const sent = started.length
    proxy.delay(2000)
    const creates = Promise.all(names(12, 'lost').map((name) => create(store, name)))
    await new Promise((resolve) => setTimeout(resolve, 400))
    proxy.delay(0)
    expect((await creates).every(E.isLeft)).to.equal(true)
    const stored = await db
      .collection<{ name: string }>(PETS)
      .aggregate<{ _id: string; n: number }>([
        { $match: { name: { $regex: '^lost' } } },
        { $group: { _id: '$name', n: { $sum: 1 } } },
      ])
      .toArray()
    // Each insert reached the server and landed once: the outcome was unknown, so no create
    // tried again under another id.
    expect(stored.map((group) => group.n)).to.deep.equal(Array.from({ length: 12 }, () => 1))
    expect(started.slice(sent).reduce((n, documents) => n + documents, 0)).to.equal(12)
  })
})
