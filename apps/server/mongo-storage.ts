import {
  connectMongo,
  createMongoApiKeyRegistry,
  InvalidMongoUri,
} from '../../adapters/mongodb/index.js'
import type { Logger, OnUnreadablePet } from '../../core/index.js'
import { ConfigurationError } from './config.js'
import type { Storage, StorageConfig } from './storage.js'

/** The MongoDB store; start-up retries until STARTUP_TIMEOUT_MS, then fails with the cause. */
export const mongoStorage = async (
  uri: string,
  config: StorageConfig,
  logger: Logger,
  onUnreadablePet: OnUnreadablePet,
): Promise<Storage> => {
  const storage = await connectMongo({
    uri,
    timeoutMs: config.storeTimeoutMs,
    startupTimeoutMs: config.startupTimeoutMs,
    onUnreadablePet,
    onRetry: (error) =>
      logger.warn(
        { err: String(error) },
        'database not ready yet (unreachable, or a connection dropped while building indexes), retrying',
      ),
  }).catch((error: unknown) => {
    throw error instanceof InvalidMongoUri
      ? new ConfigurationError(`MONGODB_URI ${error.message}`)
      : error
  })
  return {
    ...storage,
    keyRegistry: createMongoApiKeyRegistry(storage.db, { timeoutMs: config.storeTimeoutMs }),
  }
}
