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

const principalOf = (key: StoredKey): Principal => ({
  keyId: key.id,
  scopes: key.scopes,
  ...(key.expiresAt === null ? {} : { expiresAt: key.expiresAt }),
  ...(key.revokedAt === null ? {} : { revoked: true }),
})

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

export type KeyRing = ApiKeys & { readonly replace: (keys: ReadonlyArray<StoredKey>) => void }

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
  return {
    replace,
    verifyApiKey: (presented) =>
      TE.right(O.fromNullable(byDigest.get(digestOfPresented(presented)))),
  }
}

/** API keys held in memory, each with every scope and no expiry. */
export const createInMemoryApiKeys = (keys: ReadonlyArray<string>): ApiKeys =>
  createKeyRing(keys.map(bootstrapKey))
