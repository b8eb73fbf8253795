import * as TE from 'fp-ts/lib/TaskEither.js'
import { MongoClient, MongoInvalidArgumentError, type Db } from 'mongodb'
import type {
  CheckReadiness,
  IdempotencyStore,
  OnUnreadablePet,
  PetStore,
} from '../../core/index.js'
import {
  connectionSettingsOf,
  DEFAULT_POOL_SIZE,
  type ConnectionSettings,
} from './connection-string.js'
import { createMongoIdempotencyStore } from './idempotency-store.js'
import { retryDropped } from './index-build.js'
import { ensureIndexes } from './indexes.js'
import { createMongoPetStore } from './pet-store.js'
import { fromDriver } from './store-failure.js'

/** Where the database is, and how long its calls may take. */
export type MongoOptions = {
  /** A mongodb:// or mongodb+srv:// URI; its path names the database (DEFAULT_DATABASE if none). */
  readonly uri: string
  /** The budget of one store call, retries included: past it a request gets 503. */
  readonly timeoutMs: number
  /** How long start-up keeps trying to reach the database before it gives up. */
  readonly startupTimeoutMs: number
  /** Told of each failed attempt at start: a ping unanswered, or a connection dropped while building indexes. */
  readonly onRetry?: (error: unknown) => void
  /** Told of each stored pet this version cannot read (see MongoPetStoreOptions). */
  readonly onUnreadablePet?: OnUnreadablePet
}

/** The stores on one database, its readiness check, and how to close the client. */
export type MongoStorage = {
  readonly store: PetStore
  readonly idempotencyStore: IdempotencyStore
  readonly db: Db
  readonly checkReadiness: CheckReadiness
  /** Closes the client: every store above fails from then on. */
  readonly close: () => Promise<void>
}

/** A connection string that can never work: not an outage to wait out, so start-up stops at once. */
export class InvalidMongoUri extends Error {
  override readonly name = 'InvalidMongoUri'
}

/** MongoDB's rule for a database name (on every platform). */
const DATABASE_NAME = /^[^/\\. "$*<>:|?\0]{1,63}$/

/** The most connections one instance may ask for; the driver itself takes 0 as "no limit". */
const MAX_POOL_SIZE = 999_999

/**
 * Why the driver or this adapter would refuse the connection string, or undefined. The driver
 * parses it when a client is built (no connection is made); a pool size it would accept only at
 * the first connection, or a database name the server would refuse, would otherwise look like an
 * unreachable database.
 */
export const mongoUriProblem = (uri: string): string | undefined => {
  let settings: ConnectionSettings
  try {
    settings = connectionSettingsOf(uri)
  } catch (error) {
    return error instanceof Error ? error.message : String(error)
  }
  const { maxPoolSize, minPoolSize, database } = settings
  if (maxPoolSize !== undefined && (maxPoolSize < 1 || maxPoolSize > MAX_POOL_SIZE))
    return `maxPoolSize must be a whole number from 1 (got "${maxPoolSize}")`
  // The driver checks this only when it first connects (reachableClient says why it matters).
  const most = maxPoolSize ?? DEFAULT_POOL_SIZE
  if (minPoolSize > most)
    return `minPoolSize (${minPoolSize}) must not be above maxPoolSize (${most}${maxPoolSize === undefined ? ', the default here' : ''})`
  return DATABASE_NAME.test(database)
    ? undefined
    : `the database name "${database}" is not one MongoDB accepts (1 to 63 characters, none of / \\ . space " $ * < > : | ?)`
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * Connects with majority writes and primary reads, so that a pet acknowledged by one instance
 * is readable through every other, and with short timeouts, so that an outage answers 503 fast.
 * The store bounds each call by `timeoutMs` (deadline.ts); the driver's own timeouts bound the
 * work a call that ran out of time leaves behind: waiting for a connection, connecting, a socket.
 */
const clientOf = (
  options: MongoOptions,
  settings: ConnectionSettings,
  waitMs = options.timeoutMs,
): MongoClient =>
  new MongoClient(options.uri, {
    useBigInt64: true,
    writeConcern: { w: 'majority' },
    readConcern: { level: 'majority' },
    readPreference: 'primary',
    ...(settings.maxPoolSize === undefined ? { maxPoolSize: DEFAULT_POOL_SIZE } : {}),
    serverSelectionTimeoutMS: waitMs,
    connectTimeoutMS: waitMs,
    socketTimeoutMS: options.timeoutMs * 2,
    waitQueueTimeoutMS: options.timeoutMs,
  })

/** Pause between start-up pings. */
const RETRY_PAUSE_MS = 500

/**
 * A client whose database has answered a ping, tried every 500 ms until the start-up time is
 * over; then the last error is thrown. Each try is a new client: the driver closes a client
 * whose first connection failed, and every later command on it fails with "Topology is closed"
 * instead of the real cause, even once the database is up. A try waits at most what is left of
 * the start-up time, so the last one ends at the deadline rather than a store timeout past it.
 *
 * Some options the driver checks only when it first connects (`minPoolSize` above
 * `maxPoolSize`, say): its MongoInvalidArgumentError then says the URI can never work, and
 * waiting out the start-up time for it would report an outage that is not one.
 */
const reachableClient = async (
  options: MongoOptions,
  settings: ConnectionSettings,
  deadline: number,
): Promise<MongoClient> => {
  for (;;) {
    // At least 1 ms: the driver takes 0 as "no limit".
    const waitMs = Math.max(1, Math.min(options.timeoutMs, deadline - Date.now()))
    const client = clientOf(options, settings, waitMs)
    try {
      await client.db(settings.database).command({ ping: 1 })
      return await keptClient(client, waitMs, options, settings)
    } catch (error) {
      await client.close().catch(() => undefined)
      if (error instanceof MongoInvalidArgumentError) throw new InvalidMongoUri(error.message)
      const left = deadline - Date.now()
      if (left <= 0) throw error
      options.onRetry?.(error)
      // Never a busy loop: a try that fails at once (a refused login, say) waits too; the pause
      // ends at the deadline at the latest, and a deadline reached in it ends the start.
      await sleep(Math.min(RETRY_PAUSE_MS, left))
      if (Date.now() >= deadline) throw error
    }
  }
}

/**
 * The client to serve with: the one that answered, unless the deadline cut its timeouts short,
 * which would then bound every store call's server selection.
 */
const keptClient = async (
  client: MongoClient,
  waitMs: number,
  options: MongoOptions,
  settings: ConnectionSettings,
): Promise<MongoClient> => {
  if (waitMs === options.timeoutMs) return client
  await client.close()
  return clientOf(options, settings)
}

/**
 * Connects (retrying until `startupTimeoutMs`), builds the indexes, and gives the stores.
 * Throws InvalidMongoUri for a URI that cannot work, whatever the wait.
 *
 * @example
 * ```ts
 * import { createPet } from 'animal-store'
 * import { connectMongo } from 'animal-store/mongodb'
 *
 * const storage = await connectMongo({
 *   uri: process.env.MONGODB_URI ?? 'mongodb://localhost:27017/animal_store',
 *   timeoutMs: 2000, // each store call's deadline
 *   startupTimeoutMs: 30_000, // how long to wait for the database at start
 * })
 * try {
 *   const created = await createPet(storage.store)({ name: 'Rex', categoryId: 7n })()
 *   console.log(created._tag) // Right
 * } finally {
 *   await storage.close()
 * }
 * ```
 */
export const connectMongo = async (options: MongoOptions): Promise<MongoStorage> => {
  const problem = mongoUriProblem(options.uri)
  if (problem !== undefined) throw new InvalidMongoUri(problem)
  const deadline = Date.now() + options.startupTimeoutMs
  const settings = connectionSettingsOf(options.uri)
  const client = await reachableClient(options, settings, deadline)
  const db = client.db(settings.database)
  try {
    // Instances started together build the same indexes at once, and the server may drop a
    // connection on it (FerretDB v1 does): creating only what is missing, retried briefly.
    await retryDropped(() => ensureIndexes(db), {
      deadline: Math.max(deadline, Date.now() + 2000),
      ...(options.onRetry === undefined ? {} : { onRetry: options.onRetry }),
    })
  } catch (error) {
    await client.close()
    throw error
  }
  return {
    store: createMongoPetStore(db, {
      timeoutMs: options.timeoutMs,
      maxConcurrent: settings.maxPoolSize ?? DEFAULT_POOL_SIZE,
      ...(options.onUnreadablePet === undefined
        ? {}
        : { onUnreadablePet: options.onUnreadablePet }),
    }),
    idempotencyStore: createMongoIdempotencyStore(db, { timeoutMs: options.timeoutMs }),
    db,
    checkReadiness: () => TE.asUnit(fromDriver(() => db.command({ ping: 1 }))),
    close: () => client.close(),
  }
}
