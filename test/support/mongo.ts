import { randomBytes } from 'node:crypto'
import * as TE from 'fp-ts/lib/TaskEither.js'
import { MongoClient, type Db } from 'mongodb'
import { createMongoPetStore, ensureIndexes } from '../../adapters/mongodb/index.js'
import type { Storage } from '../../apps/server/compose.js'

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

/** A Storage on a fresh database with its indexes; closing it drops the database. */
export const freshMongoStorage = async (uri: string): Promise<Storage & { db: Db }> => {
  const client = await sharedClient(uri)
  const db = client.db(freshDatabaseName())
  await ensureIndexes(db)
  return {
    db,
    store: createMongoPetStore(db),
    checkReadiness: () => TE.right(undefined),
    close: async () => void (await db.dropDatabase()),
  }
}
