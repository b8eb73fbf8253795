import { expect } from 'chai'
import * as E from 'fp-ts/lib/Either.js'
import * as O from 'fp-ts/lib/Option.js'
import { MongoClient, type Db } from 'mongodb'
import { createMongoPetStore, PETS } from '../../../adapters/mongodb/index.js'
import { NEW_PET_OPTIONAL, NEW_PET_REQUIRED } from '../../../core/domain/new-pet.js'
import { strictStruct } from '../../../core/domain/strict-struct.js'
import { PetId, type NewPet } from '../../../core/index.js'
import { freshDatabaseName, requireMongo } from '../../support/mongo.js'

/**
 * How 2.0.0 reads a stored pet, frozen: the fields it projects out, then its Pet codec, which
 * refuses a field it does not know (every instance of 2.0.0 answered 503 for such a pet).
 */
const RELEASE_2_PROJECTION = { _op: 0, _idem: 0 } as const
const Release2Pet = strictStruct(
  'Pet',
  { id: PetId, ...NEW_PET_REQUIRED },
  NEW_PET_OPTIONAL,
  'field',
)

describe('MongoDB adapter: the stored form, as the versions around this one read it', function () {
  let client: MongoClient
  let db: Db

  beforeEach(async function () {
    client = await new MongoClient(requireMongo(this), { useBigInt64: true }).connect()
    db = client.db(freshDatabaseName())
  })
  afterEach(async () => {
    await db.dropDatabase()
    await client.close()
  })

  it('stores pets that 2.0.0, sharing the database in a rolling deploy, reads', async () => {
    const store = createMongoPetStore(db)
    const pets: ReadonlyArray<NewPet> = [
      { name: 'Plain', categoryId: 7n } as NewPet,
      { name: 'Sold', categoryId: 9007199254740993n, status: 'sold' } as NewPet,
    ]
    for (const pet of pets) {
      expect(E.isRight(await store.insertPet(pet)())).to.equal(true)
      expect(E.isRight(await store.insertPet(pet, `op-${pet.name}`)())).to.equal(true)
    }
    const docs = await db.collection(PETS).find({}, { projection: RELEASE_2_PROJECTION }).toArray()
    expect(docs).to.have.length(4)
    for (const { _id, ...fields } of docs) {
      const read = Release2Pet.decode({ id: _id, ...fields })
      expect(E.isRight(read), JSON.stringify(Object.keys(fields))).to.equal(true)
    }
  })

  it('stores an optional field passed as undefined as absent, not null: the pet is found', async () => {
    const store = createMongoPetStore(db)
    // As a caller compiled without exactOptionalPropertyTypes (TypeScript's default) may pass it.
    const inserted = await store.insertPet({
      name: 'Rex',
      categoryId: 7n,
      status: undefined,
    } as unknown as NewPet)()
    if (E.isLeft(inserted)) throw new Error(JSON.stringify(inserted.left))
    const doc = await db.collection(PETS).findOne({ _id: inserted.right.id })
    expect(doc).to.not.have.property('status')
    const found = await store.findPet(inserted.right.id)()
    expect(found).to.deep.equal(
      E.right(O.some({ id: inserted.right.id, name: 'Rex', categoryId: 7n })),
    )
  })

  it('reads a field stored as null, as 2.0.0 stored one given as undefined, as absent', async () => {
    await db
      .collection(PETS)
      .insertOne({ _id: 5n, name: 'Old', categoryId: 7n, status: null, _op: 'a' } as never)
    const store = createMongoPetStore(db)
    const pet = { id: 5n, name: 'Old', categoryId: 7n }
    expect(await store.findPet(5n as PetId)()).to.deep.equal(E.right(O.some(pet)))
    expect(await store.listPetPage({ limit: 10 })()).to.deep.equal(E.right([pet]))
  })

  it('reads the id from _id, never from a stored field named id', async () => {
    // As a pet imported from the API's JSON is stored: the driver gives it an ObjectId as _id.
    await db.collection(PETS).insertMany([
      { _id: 9n, id: 3n, name: 'Nine', categoryId: 7n, _op: 'a' },
      { id: 4n, name: 'Imported', categoryId: 7n, _op: 'b' },
    ] as never[])
    const store = createMongoPetStore(db)
    const nine = { id: 9n, name: 'Nine', categoryId: 7n }
    expect(await store.findPet(9n as PetId)()).to.deep.equal(E.right(O.some(nine)))
    expect(await store.listPetPage({ limit: 10 })()).to.deep.equal(E.right([nine]))
  })
})
