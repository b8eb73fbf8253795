import { readFile, rename, writeFile } from 'node:fs/promises'
import * as E from 'fp-ts/lib/Either.js'
import { pipe } from 'fp-ts/lib/function.js'
import * as TE from 'fp-ts/lib/TaskEither.js'
import * as t from 'io-ts'
import {
  parseIsoInstant,
  Scope,
  storeUnavailable,
  type ApiKeyRegistry,
  type StoreUnavailable,
  type StoredKey,
} from '../../core/index.js'
import { withFileLock, type FileLockOptions } from './file-lock.js'

/** One line of the key file: JSON, times as ISO 8601 so that an operator can read it. */
const Line = t.type({
  id: t.string,
  digest: t.string,
  label: t.string,
  scopes: t.array(Scope),
  createdAt: t.string,
  expiresAt: t.union([t.string, t.null]),
  revokedAt: t.union([t.string, t.null]),
})

const DIGEST = /^[0-9a-f]{64}$/
/** Milliseconds, or NaN for a time that is not ISO 8601 with a time zone (or not a real date). */
const millisOf = (iso: string): number => parseIsoInstant(iso)?.getTime() ?? NaN
const time = (iso: string | null): number | null => (iso === null ? null : millisOf(iso))
const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString())

const parseLine = (text: string, n: number): E.Either<string, StoredKey> => {
  let raw: unknown
  try {
    raw = JSON.parse(text)
  } catch {
    return E.left(`line ${n} is not JSON`)
  }
  const line = Line.decode(raw)
  if (E.isLeft(line) || !DIGEST.test(line.right.digest))
    return E.left(`line ${n} is not a key record`)
  const { createdAt, expiresAt, revokedAt, ...rest } = line.right
  const times = { createdAt: millisOf(createdAt), expiresAt: time(expiresAt) }
  const key = { ...rest, ...times, revokedAt: time(revokedAt) }
  // A time that does not parse would never come: a key meant to expire would live for ever.
  if ([key.createdAt, key.expiresAt, key.revokedAt].some((t) => Number.isNaN(t)))
    return E.left(`line ${n} has a time that is not ISO 8601`)
  return E.right(key)
}

/** Parses a key file; a broken line fails the whole file, so no key is silently dropped. */
export const parseKeyFile = (text: string): E.Either<string, ReadonlyArray<StoredKey>> =>
  E.sequenceArray(
    text
      .split('\n')
      .map((line, i) => [line.trim(), i + 1] as const)
      .filter(([line]) => line !== '')
      .map(([line, n]) => parseLine(line, n)),
  )

export const formatKeyFile = (keys: ReadonlyArray<StoredKey>): string =>
  keys
    .map((k) =>
      JSON.stringify({
        ...k,
        createdAt: iso(k.createdAt),
        expiresAt: iso(k.expiresAt),
        revokedAt: iso(k.revokedAt),
      }),
    )
    .map((line) => `${line}\n`)
    .join('')

const failure = (path: string) => (error: unknown) =>
  storeUnavailable(`key file ${path}: ${error instanceof Error ? error.message : String(error)}`)

/**
 * Minted keys in a file of JSON lines (digests only), for the in-memory default. A missing file
 * holds no keys. Writes go to a temporary file renamed over the old one, so a reader never sees
 * half a file; a change (read, then write) holds `<path>.lock`, so writers take turns.
 */
export const createKeyFile = (path: string, lock: FileLockOptions = {}): ApiKeyRegistry => {
  const listKeys = (): TE.TaskEither<StoreUnavailable, ReadonlyArray<StoredKey>> =>
    pipe(
      TE.tryCatch(
        () =>
          readFile(path, 'utf8').catch((error: NodeJS.ErrnoException) =>
            error.code === 'ENOENT' ? '' : Promise.reject(error),
          ),
        failure(path),
      ),
      TE.chainEitherK((text) => pipe(parseKeyFile(text), E.mapLeft(failure(path)))),
    )
  const save = (keys: ReadonlyArray<StoredKey>) =>
    TE.tryCatch(async () => {
      await writeFile(`${path}.tmp`, formatKeyFile(keys), { mode: 0o600 })
      await rename(`${path}.tmp`, path)
    }, failure(path))
  /** A read and the write that follows it, with no other writer in between. */
  const locked =
    <A>(change: TE.TaskEither<StoreUnavailable, A>): TE.TaskEither<StoreUnavailable, A> =>
    () =>
      withFileLock(path, change, lock).catch((error: unknown) => E.left(failure(path)(error)))
  return {
    listKeys,
    addKey: (key) =>
      locked(
        pipe(
          listKeys(),
          TE.chain((keys) => save([...keys, key])),
        ),
      ),
    revokeKey: (id, at) =>
      locked(
        pipe(
          listKeys(),
          TE.chain((keys) => {
            if (!keys.some((k) => k.id === id)) return TE.right(false)
            const next = keys.map((k) =>
              k.id === id && k.revokedAt === null ? { ...k, revokedAt: at } : k,
            )
            return pipe(save(next), TE.as(true))
          }),
        ),
      ),
  }
}
