import * as E from 'fp-ts/lib/Either.js'
import { parseIsoInstant, Scope, type StoredKey } from '../../core/index.js'

/** One line of the key file: JSON, times as ISO 8601 so that an operator can read it. */
type Line = {
  id: string
  digest: string
  label: string
  scopes: Scope[]
  createdAt: string
  expiresAt: string | null
  revokedAt: string | null
}

const isText = (u: unknown): u is string => typeof u === 'string'
const isTextOrNull = (u: unknown) => u === null || isText(u)

// Checked by hand rather than with an io-ts codec: a large file is read while the service
// answers, and the codec's allocations per line made the collector pause it.
const isLine = (u: unknown): u is Line => {
  if (typeof u !== 'object' || u === null) return false
  const r = u as Record<string, unknown>
  return (
    isText(r.id) &&
    isText(r.digest) &&
    DIGEST.test(r.digest) &&
    isText(r.label) &&
    Array.isArray(r.scopes) &&
    r.scopes.every((s) => Scope.is(s)) &&
    isText(r.createdAt) &&
    isTextOrNull(r.expiresAt) &&
    isTextOrNull(r.revokedAt)
  )
}

const DIGEST = /^[0-9a-f]{64}$/
/** Milliseconds, or NaN for a time that is not ISO 8601 with a time zone (or not a real date). */
const millisOf = (iso: string): number => parseIsoInstant(iso)?.getTime() ?? NaN
const time = (iso: string | null): number | null => (iso === null ? null : millisOf(iso))
const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString())

/** Line `n` of the file (trimmed, not empty) as a key, or why it is not one. */
export const parseLine = (text: string, n: number): E.Either<string, StoredKey> => {
  let raw: unknown
  try {
    raw = JSON.parse(text)
  } catch {
    return E.left(`line ${n} is not JSON`)
  }
  if (!isLine(raw)) return E.left(`line ${n} is not a key record`)
  const key: StoredKey = {
    id: raw.id,
    digest: raw.digest,
    label: raw.label,
    scopes: raw.scopes,
    createdAt: millisOf(raw.createdAt),
    expiresAt: time(raw.expiresAt),
    revokedAt: time(raw.revokedAt),
  }
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

/** The text of a key file holding these keys, one JSON line each. */
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
