import { connectMongo, createMongoApiKeyRegistry } from '../../adapters/mongodb/index.js'
import type { Logger } from '../../core/index.js'
import type { Storage, StorageConfig } from './storage.js'

/** The MongoDB store; start-up retries until STARTUP_TIMEOUT_MS, then fails with the cause. */
export const mongoStorage = async (
  uri: string,
  config: StorageConfig,
  logger: Logger,
): Promise<Storage> => {
  const storage = await connectMongo({
    uri,
    timeoutMs: config.storeTimeoutMs,
    startupTimeoutMs: config.startupTimeoutMs,
    onRetry: (error) =>
      logger.warn(
        { err: String(error) },
        'database not ready yet (unreachable, or a connection dropped while building indexes), retrying',
      ),
  })
  return {
    ...storage,
    keyRegistry: createMongoApiKeyRegistry(storage.db, { timeoutMs: config.storeTimeoutMs }),
  }
}
