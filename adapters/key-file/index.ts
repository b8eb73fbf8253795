/**
 * Minted API keys (digests) in a file of JSON lines, for the service on its in-memory store.
 *
 * @module animal-store/key-file
 */
export { createKeyFile } from './key-file.js'
export { parseKeyFile, formatKeyFile } from './lines.js'
export {
  checkKeyFile,
  checkKeyFileMode,
  checkKeyFileStats,
  isRefused,
  type ModeCheck,
} from './mode.js'
export { withFileLock, type FileLockOptions } from './file-lock.js'
