import {
  bootstrapKey,
  createCachedApiKeys,
  createInMemoryApiKeys,
} from '../../adapters/in-memory/index.js'
import { createKeyFile } from '../../adapters/key-file/index.js'
import type { Logger } from '../../core/index.js'
import type { ApiKeys } from '../../core/index.js'
import type { Storage } from './storage.js'
import type { Config } from './config.js'

/** A request never uses keys read more than this long before it: the bound on propagation. */
export const KEYS_MAX_AGE_MS = 4000
/** Past this age the keys are re-read in the background, so a busy instance rarely waits. */
export const KEYS_REFRESH_AFTER_MS = 2000

/**
 * The keys the service accepts: API_KEYS (every scope, no expiry) plus, when there is a shared
 * source, the minted keys: the MongoDB collection when the store is MongoDB, else API_KEYS_FILE.
 */
export const apiKeysOf = (
  config: Config,
  storage: Storage,
  keys: ReadonlyArray<string>,
  logger: Logger,
): ApiKeys => {
  const registry =
    storage.keyRegistry ??
    (config.apiKeysFile === undefined ? undefined : createKeyFile(config.apiKeysFile))
  if (registry === undefined) return createInMemoryApiKeys(keys)
  return createCachedApiKeys({
    bootstrap: keys.map(bootstrapKey),
    load: registry.readKeysIfChanged,
    now: Date.now,
    refreshAfterMs: KEYS_REFRESH_AFTER_MS,
    maxAgeMs: KEYS_MAX_AGE_MS,
    onError: (error) => logger.warn({ err: error.detail }, 'cannot read the API keys'),
  })
}
