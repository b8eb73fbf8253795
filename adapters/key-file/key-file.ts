import * as E from 'fp-ts/lib/Either.js'
import { pipe } from 'fp-ts/lib/function.js'
import * as TE from 'fp-ts/lib/TaskEither.js'
import {
  storeUnavailable,
  type ApiKeyRegistry,
  type StoreUnavailable,
  type StoredKey,
} from '../../core/index.js'
import { withFileLock, type FileLockOptions } from './file-lock.js'
import { formatKeyFile } from './lines.js'
import { readAll, readIfChanged } from './read.js'
import { replaceFile } from './write.js'

const failure = (path: string) => (error: unknown) =>
  storeUnavailable(`key file ${path}: ${error instanceof Error ? error.message : String(error)}`)

const isPast = (at: number | null, before: number) => at !== null && at < before

/**
 * Minted keys in a file of JSON lines (digests only), for the in-memory default. A missing file
 * holds no keys. Writes replace the file whole (write.ts), so a reader never sees half a file;
 * a change (read, then write) holds `<path>.lock`, so writers take turns.
 */
export const createKeyFile = (path: string, lock: FileLockOptions = {}): ApiKeyRegistry => {
  const listKeys = () => TE.tryCatch(() => readAll(path), failure(path))
  const save = (keys: ReadonlyArray<StoredKey>) =>
    TE.tryCatch(() => replaceFile(path, formatKeyFile(keys)), failure(path))
  /** A read and the write that follows it, with no other writer in between. */
  const change =
    <A>(edit: (keys: ReadonlyArray<StoredKey>) => { keys?: ReadonlyArray<StoredKey>; result: A }) =>
    (): TE.TaskEither<StoreUnavailable, A> =>
    () =>
      withFileLock(
        path,
        pipe(
          listKeys(),
          TE.chain((keys) => {
            const { keys: next, result } = edit(keys)
            return next === undefined ? TE.right(result) : pipe(save(next), TE.as(result))
          }),
        ),
        lock,
      ).catch((error: unknown) => E.left(failure(path)(error)))
  return {
    listKeys,
    readKeysIfChanged: (seen) => TE.tryCatch(() => readIfChanged(path, seen), failure(path)),
    addKey: (key) => change((keys) => ({ keys: [...keys, key], result: undefined }))(),
    revokeKey: (id, at) =>
      change((keys) =>
        keys.some((k) => k.id === id)
          ? {
              keys: keys.map((k) =>
                k.id === id && k.revokedAt === null ? { ...k, revokedAt: at } : k,
              ),
              result: true,
            }
          : { result: false },
      )(),
    pruneKeys: (before) =>
      change((keys) => {
        const kept = keys.filter(
          (k) => !isPast(k.expiresAt, before) && !isPast(k.revokedAt, before),
        )
        return kept.length === keys.length
          ? { result: 0 }
          : { keys: kept, result: keys.length - kept.length }
      })(),
  }
}
