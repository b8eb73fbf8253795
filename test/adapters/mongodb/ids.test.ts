import { expect } from 'chai'
import * as E from 'fp-ts/lib/Either.js'
import { Double, Int32, MongoClient, type Db } from 'mongodb'
import { COUNTERS, createMongoPetStore, PETS } from '../../../adapters/mongodb/index.js'
import { INT64_MAX, type NewPet, type Pet, type PetStore } from '../../../core/index.js'
import { freshDatabaseName, requireMongo } from '../../support/mongo.js'

const created = async (store: PetStore, name: string): Promise<Pet> => {
  const result = await store.insertPet({ name, categoryId: 1n } as NewPet)()
  if (E.isLeft(result)) throw new Error(JSON.stringify(result.left))
  return result.right
}
const ascending = (ids: ReadonlyArray<bigint>) => ids.every((id, i) => i === 0 || ids[i - 1]! < id)

describe('MongoDB adapter: ids in blocks per instance', function () {
  this.timeout(60_000)
  let client: MongoClient
  let db: Db
  const events: { name: string; command: Record<string, unknown>; duplicate: boolean }[] = []

  beforeEach(async function () {
    client = await new MongoClient(requireMongo(this), {
      useBigInt64: true,
      monitorCommands: true,
    }).connect()
    const started = new Map<number, Record<string, unknown>>()
    client.on('commandStarted', (e) => started.set(e.requestId, e.command))
    client.on('commandSucceeded', (e) =>
      events.push({
        name: e.commandName,
        command: started.get(e.requestId) ?? {},
        duplicate: (e.reply as { writeErrors?: unknown }).writeErrors !== undefined,
      }),
    )
    db = client.db(freshDatabaseName())
    events.length = 0
  })
  afterEach(async () => {
    await db.dropDatabase()
    await client.close()
  })

  const petInsertsRefused = () =>
    events.filter((e) => e.name === 'insert' && e.command.insert === PETS && e.duplicate).length
  const largestIdScans = () =>
    events.filter((e) => e.name === 'find' && e.command.find === PETS).length

  it('gives instances creating at once disjoint blocks: no insert collides, each instance ascending', async () => {
    const instances = [createMongoPetStore(db), createMongoPetStore(db), createMongoPetStore(db)]
    // Four clients per instance, each creating one pet after another.
    const sequences = await Promise.all(
      instances.flatMap((store, i) =>
        Array.from({ length: 4 }, async (_, c) => {
          const ids: bigint[] = []
          for (let k = 0; k < 15; k++) ids.push((await created(store, `${i}-${c}-${k}`)).id)
          return ids
        }),
      ),
    )
    expect(new Set(sequences.flat()).size).to.equal(180)
    // A create that starts after another one on the same instance ended gets a higher id.
    for (const ids of sequences) expect(ascending(ids)).to.equal(true)
    expect(petInsertsRefused()).to.equal(0)
    expect(await db.collection(PETS).countDocuments({})).to.equal(180)
  })

  it('recovers from a counter far behind the ids in use (a rolled-back counter) with one catch-up', async () => {
    await db
      .collection<{ _id: bigint }>(PETS)
      .insertMany(Array.from({ length: 2500 }, (_, i) => ({ _id: BigInt(i + 1), name: 'old' })))
    const store = createMongoPetStore(db)
    const pets = await Promise.all(Array.from({ length: 20 }, (_, i) => created(store, `n${i}`)))
    expect(new Set(pets.map((p) => p.id)).size).to.equal(20)
    expect(pets.every((p) => p.id > 2500n)).to.equal(true)
    expect(largestIdScans()).to.be.at.most(1)
    expect(await db.collection(PETS).countDocuments({})).to.equal(2520)
  })

  it('takes a counter and ids written by other means as numbers (mongosh, mongoimport) and goes on above them', async () => {
    // mongosh writes a double, mongoimport an int32: the driver gives both back as numbers.
    await db
      .collection<{ _id: string; seq: Double }>(COUNTERS)
      .insertOne({ _id: 'pets', seq: new Double(40) })
    await db
      .collection<{ _id: Int32 }>(PETS)
      .insertMany(Array.from({ length: 100 }, (_, i) => ({ _id: new Int32(i + 1), name: 'old' })))
    // Blocks of 10 from the counter's: three collide, the fourth collision looks up the largest.
    const store = createMongoPetStore(db, { idBlockSize: 10n })
    const pet = await created(store, 'new')
    expect(pet.id > 100n, String(pet.id)).to.equal(true)
    expect(await db.collection(PETS).countDocuments({})).to.equal(101)
  })

  it('catches up past the largest id in use when pets stored by other means have a text _id or one past int64', async () => {
    await db
      .collection<{ _id: bigint | string | Double; name: string }>(PETS)
      .insertMany([
        ...Array.from({ length: 200 }, (_, i) => ({ _id: BigInt(i + 1), name: 'old' })),
        { _id: 'imported', name: 'text' },
        { _id: new Double(1e19), name: 'past int64' },
      ])
    // Twenty blocks behind: without the catch-up, a create runs out of attempts first.
    const store = createMongoPetStore(db, { idBlockSize: 10n })
    expect((await created(store, 'new')).id > 200n).to.equal(true)
    expect(largestIdScans()).to.equal(1)
  })

  it('hands out ids up to 2^63-1 and no further: then every create is 503, nothing is stored past it', async () => {
    await db
      .collection<{ _id: string; seq: bigint }>(COUNTERS)
      .insertOne({ _id: 'pets', seq: INT64_MAX - 25n })
    const store = createMongoPetStore(db, { idBlockSize: 10n })
    const results = []
    for (let i = 0; i < 40; i++)
      results.push(await store.insertPet({ name: `top${i}`, categoryId: 1n } as NewPet)())
    const ids = results.flatMap((r) => (E.isRight(r) ? [r.right.id] : []))
    expect(ids.at(-1)).to.equal(INT64_MAX)
    expect(ascending(ids)).to.equal(true)
    const refused = results.slice(ids.length)
    expect(refused.length).to.be.greaterThan(0)
    // Not an outage (503 with Retry-After): no create can ever succeed again.
    for (const r of refused) expect(r).to.deep.equal(E.left({ _tag: 'StoreFull' }))
    const stored = await db.collection<{ _id: bigint }>(PETS).find({}).toArray()
    expect(stored.every((doc) => doc._id > 0n && doc._id <= INT64_MAX)).to.equal(true)
    expect(stored).to.have.length(ids.length)
    // The counter holds the top, not a block's end past int64 (which BSON would wrap below zero):
    // an instance that starts now, or after a restart, goes no lower.
    const counter = await db.collection<{ _id: string; seq: bigint }>(COUNTERS).findOne({})
    expect(counter?.seq).to.equal(INT64_MAX)
    const restarted = createMongoPetStore(db, { idBlockSize: 10n })
    const afterRestart = await restarted.insertPet({ name: 'late', categoryId: 1n } as NewPet)()
    expect(afterRestart).to.deep.equal(E.left({ _tag: 'StoreFull' }))
  })

  it('continues above every id handed out when an instance restarts, or another one starts', async () => {
    const first = createMongoPetStore(db)
    const before = [await created(first, 'a'), await created(first, 'b')]
    const restarted = createMongoPetStore(db)
    const after = await created(restarted, 'c')
    expect(before.every((p) => p.id < after.id)).to.equal(true)
    expect((await created(first, 'd')).id > (before[1] as Pet).id).to.equal(true)
    const counter = await db.collection<{ _id: string; seq: bigint }>(COUNTERS).findOne({})
    expect(counter?.seq !== undefined && counter.seq >= after.id).to.equal(true)
  })
})
