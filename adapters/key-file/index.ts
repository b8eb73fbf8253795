/** Minted API keys (digests) in a file of JSON lines, for the service on its in-memory store. */
export { createKeyFile, parseKeyFile, formatKeyFile } from './key-file.js'
export { withFileLock, type FileLockOptions } from './file-lock.js'
