import { randomBytes, randomUUID } from 'node:crypto'
import { MongoClient } from 'mongodb'
import { PETS } from '../../adapters/mongodb/index.js'
import type { PetStoreFactoryOptions } from '../../adapters/testing/index.js'
import { openStorage, type Storage } from '../../apps/server/storage.js'
import { silentLogger } from '../../core/index.js'

/** The URI of the test server, or undefined (with the reason printed by the fixture). */
export const testMongoUri = (): string | undefined => process.env.TEST_MONGODB_URI

/** Skips the calling suite when there is no server (never in CI: the fixture fails first). */
export const requireMongo = (context: Mocha.Context): string => {
  const uri = testMongoUri()
  if (uri === undefined) {
    if (process.env.CI === 'true')
      throw new Error(process.env.TEST_MONGODB_MISSING ?? 'no MongoDB server')
    context.skip()
  }
  return uri as string
}

/** A fresh database name for one test: runs never see each other's data. */
export const freshDatabaseName = (): string => `animal_store_test_${randomBytes(6).toString('hex')}`

/** The test URI with a database in its path. */
export const uriWithDatabase = (uri: string, database: string): string => {
  const url = new URL(uri)
  url.pathname = `/${database}`
  return url.toString()
}

let shared: MongoClient | undefined
export const sharedClient = async (uri: string): Promise<MongoClient> => {
  shared ??= await new MongoClient(uri, {
    useBigInt64: true,
    writeConcern: { w: 'majority' },
    serverSelectionTimeoutMS: 5000,
  }).connect()
  return shared
}
export const closeSharedClient = async (): Promise<void> => {
  await shared?.close()
  shared = undefined
}

/**
 * The service's own storage on a fresh database (indexes included); closing it drops the
 * database. `records` are stored first, as documents another version wrote them (`id` as `_id`).
 */
export const freshMongoStorage = async (
  uri: string,
  {
    records = [],
    onUnreadablePet,
  }: Pick<PetStoreFactoryOptions, 'records' | 'onUnreadablePet'> = {},
): Promise<Storage> => {
  const database = freshDatabaseName()
  if (records.length > 0)
    await (
      await sharedClient(uri)
    )
      .db(database)
      .collection<{ _id: bigint }>(PETS)
      .insertMany(
        records.map(({ id, ...fields }) => ({ _id: id as bigint, ...fields, _op: randomUUID() })),
      )
  const storage = await openStorage(
    {
      mongodbUri: uriWithDatabase(uri, database),
      maxPets: 1,
      storeTimeoutMs: 5000,
      startupTimeoutMs: 10_000,
    },
    silentLogger,
    onUnreadablePet,
  )
  return {
    ...storage,
    close: async () => {
      await (await sharedClient(uri)).db(database).dropDatabase()
      await storage.close()
    },
  }
}
