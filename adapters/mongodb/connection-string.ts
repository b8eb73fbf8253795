import { MongoClient } from 'mongodb'
import { ConnectionString } from 'mongodb-connection-string-url'

/** The database used when the connection string names none. */
export const DEFAULT_DATABASE = 'animal_store'

/**
 * Connections per instance unless the URI sets `maxPoolSize`, and as many store calls at the
 * database at once; the rest wait in the store, in order, within their deadline (call-queue.ts). A
 * burst then costs queueing time in the instance rather than lock contention in the server
 * (bench/HISTORY.md, "Grouped inserts on MongoDB").
 */
export const DEFAULT_POOL_SIZE = 8

/** What the adapter takes from a connection string. */
export type ConnectionSettings = {
  readonly database: string
  /** Undefined when the string leaves it to the adapter (DEFAULT_POOL_SIZE). */
  readonly maxPoolSize: number | undefined
  readonly minPoolSize: number
}

/**
 * The connection string as the driver reads it: the values from its parsed options (decoded and
 * checked as it will use them), and whether the string gave them at all from the parser it uses
 * (mongodb-connection-string-url), since its options fill in the driver's defaults (database
 * `test`, 100 connections) where ours apply. Throws what the driver throws.
 */
export const connectionSettingsOf = (uri: string): ConnectionSettings => {
  const { options } = new MongoClient(uri)
  const url = new ConnectionString(uri)
  const given = new Set([...url.searchParams.keys()].map((key) => key.toLowerCase()))
  return {
    database: url.pathname.length > 1 ? options.dbName : DEFAULT_DATABASE,
    maxPoolSize: given.has('maxpoolsize') ? options.maxPoolSize : undefined,
    minPoolSize: options.minPoolSize,
  }
}

/** The database named in the URI's path, else the documented default. */
export const databaseOf = (uri: string): string => connectionSettingsOf(uri).database
