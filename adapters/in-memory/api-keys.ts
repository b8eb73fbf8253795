import { setImmediate as yieldToLoop } from 'node:timers/promises'
import * as O from 'fp-ts/lib/Option.js'
import * as TE from 'fp-ts/lib/TaskEither.js'
import { ALL_SCOPES, type ApiKeys, type Principal, type StoredKey } from '../../core/index.js'
import { digestOf } from './key-digest.js'

/** A short, stable label for a key, safe to log: a prefix of its SHA-256. */
export const keyIdOf = (key: string): string => `key-${digestOf(key).slice(0, 8)}`

/** A bootstrap key (API_KEYS): every scope, no expiry. */
export const bootstrapKey = (key: string): StoredKey => ({
  id: keyIdOf(key),
  digest: digestOf(key),
  label: 'API_KEYS',
  scopes: ALL_SCOPES,
  createdAt: 0,
  expiresAt: null,
  revokedAt: null,
})

/** One object per key, no spreads: a refresh builds 100,000 of them while requests are served. */
const principalOf = ({ id: keyId, scopes, expiresAt, revokedAt }: StoredKey): Principal => {
  if (revokedAt !== null)
    return expiresAt === null
      ? { keyId, scopes, revoked: true }
      : { keyId, scopes, expiresAt, revoked: true }
  return expiresAt === null ? { keyId, scopes } : { keyId, scopes, expiresAt }
}

/**
 * The digests of recently presented keys: a client sends the same key with every request, so
 * it is hashed once rather than on each (bench/HISTORY.md). Bounded (emptied when full), so a stream of made-up
 * keys costs memory only up to the bound. It holds only what callers sent; a hit says nothing
 * about which keys are stored.
 */
const recentDigests = (bound = 1024) => {
  const digests = new Map<string, string>()
  return (presented: string): string => {
    let digest = digests.get(presented)
    if (digest === undefined) {
      if (digests.size >= bound) digests.clear()
      digest = digestOf(presented)
      digests.set(presented, digest)
    }
    return digest
  }
}

/** Keys looked up in memory, whose whole set `replace` swaps at once. */
export type KeyRing = ApiKeys & {
  /** Swaps the whole set of keys for these. */
  readonly replace: (keys: ReadonlyArray<StoredKey>) => void
  /** As `replace`, a slice at a time, so that no turn of the event loop is long. */
  readonly replaceGradually: (keys: ReadonlyArray<StoredKey>) => Promise<void>
}

/** How long one slice of a gradual replacement may run. */
const SLICE_MS = 2

/**
 * Keys by digest. The presented key is hashed first and the digest looked up in a Map: the
 * time a lookup takes depends on the digest, which a caller cannot steer without a SHA-256
 * preimage, so it tells nothing about any stored key.
 */
export const createKeyRing = (keys: ReadonlyArray<StoredKey>): KeyRing => {
  let byDigest = new Map<string, Principal>()
  const digestOfPresented = recentDigests()
  const replace = (next: ReadonlyArray<StoredKey>) => {
    byDigest = new Map(next.map((k) => [k.digest, principalOf(k)]))
  }
  replace(keys)
  const replaceGradually = async (next: ReadonlyArray<StoredKey>) => {
    const built = new Map<string, Principal>()
    let sliceEnds = performance.now() + SLICE_MS
    for (const k of next) {
      built.set(k.digest, principalOf(k))
      if (performance.now() < sliceEnds) continue
      await yieldToLoop()
      sliceEnds = performance.now() + SLICE_MS
    }
    byDigest = built
  }
  return {
    replace,
    replaceGradually,
    verifyApiKey: (presented) =>
      TE.right(O.fromNullable(byDigest.get(digestOfPresented(presented)))),
  }
}

/** API keys held in memory, each with every scope and no expiry. */
export const createInMemoryApiKeys = (keys: ReadonlyArray<string>): ApiKeys =>
  createKeyRing(keys.map(bootstrapKey))
