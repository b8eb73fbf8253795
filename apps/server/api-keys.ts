import { stat } from 'node:fs/promises'
import { bootstrapKey, createCachedApiKeys, createKeyRing } from '../../adapters/in-memory/index.js'
import { checkKeyFile, createKeyFile, isRefused } from '../../adapters/key-file/index.js'
import type { ApiKeys, Logger, StoredKey } from '../../core/index.js'
import type { Storage } from './storage.js'
import type { Config } from './config.js'

/** A request never uses keys read more than this long before it: the bound on propagation. */
export const KEYS_MAX_AGE_MS = 4000
/** Past this age the keys are re-read in the background, so a busy instance rarely waits. */
export const KEYS_REFRESH_AFTER_MS = 2000

/**
 * The keys the service accepts: API_KEYS (every scope, no expiry) or the generated key, plus, when there is a shared
 * source, the minted keys: the MongoDB collection when the store is MongoDB, else API_KEYS_FILE.
 */
export const apiKeysOf = (
  config: Config,
  storage: Storage,
  keys: ReadonlyArray<string | StoredKey>,
  logger: Logger,
): ApiKeys => {
  const bootstrap = keys.map((k) => (typeof k === 'string' ? bootstrapKey(k) : k))
  const registry =
    storage.keyRegistry ??
    (config.apiKeysFile === undefined ? undefined : createKeyFile(config.apiKeysFile))
  if (registry === undefined) return createKeyRing(bootstrap)
  return createCachedApiKeys({
    bootstrap,
    load: registry.readKeysIfChanged,
    now: Date.now,
    refreshAfterMs: KEYS_REFRESH_AFTER_MS,
    maxAgeMs: KEYS_MAX_AGE_MS,
    waitMs: config.storeTimeoutMs,
    onError: (error) => logger.warn({ err: error.detail }, 'cannot read the API keys'),
  })
}

/** Whether `path` is there (one the service may not read is, and fails where it is read). */
const exists = (path: string): Promise<boolean> =>
  stat(path).then(
    () => true,
    (error: NodeJS.ErrnoException) => error.code !== 'ENOENT',
  )

/**
 * API_KEYS_FILE's owner and permissions, checked at start: a file owned by another user (root
 * aside) or that others can write is refused (the reason is returned), one others can read is
 * served with a warning (it holds no key).
 */
export const checkApiKeysFile = async (
  config: Pick<Config, 'apiKeysFile'>,
  logger: Logger,
): Promise<string | undefined> => {
  if (config.apiKeysFile === undefined) return undefined
  // A file not there yet holds no keys (the first `npm run keys -- create` makes it), but a
  // misspelt path would refuse every minted key without a word.
  if (!(await exists(config.apiKeysFile)))
    logger.warn(
      { path: config.apiKeysFile },
      'API_KEYS_FILE does not exist: no minted key is accepted until it does',
    )
  const mode = await checkKeyFile(config.apiKeysFile)
  if (mode._tag === 'ReadableByOthers')
    logger.warn({ reason: mode.reason }, 'API_KEYS_FILE is readable by others')
  return isRefused(mode) ? mode.reason : undefined
}
