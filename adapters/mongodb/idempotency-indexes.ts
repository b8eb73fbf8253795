import type { Db } from 'mongodb'
import { IDEMPOTENCY_KEYS } from './idempotency-store.js'

export const IDEMPOTENCY_TTL_INDEX = {
  key: { expiresAt: 1 },
  name: 'expiresAt_ttl',
  expireAfterSeconds: 0,
} as const

/** FerretDB v1 answers createIndexes with an `expireAfterSeconds` option this way. */
const isTtlUnsupported = (error: unknown): boolean => {
  const { code, codeName } = (error ?? {}) as { code?: unknown; codeName?: unknown }
  return code === 238 || codeName === 'NotImplemented'
}

/**
 * The TTL index lets MongoDB delete expired keys by itself. A server without TTL indexes
 * (FerretDB v1 refuses the option) gets a plain index on `expiresAt`, which the explicit purge
 * uses; the purge runs on every server, so expiry never depends on the TTL index.
 * Returns whether the TTL index is in place.
 */
export const ensureIdempotencyIndexes = async (db: Db): Promise<boolean> => {
  const keys = db.collection(IDEMPOTENCY_KEYS)
  // Asked first, so a restart never sends the TTL option again over an existing plain index: a
  // conflicting index request is an error on MongoDB, and FerretDB v1 drops the connection on it.
  const existing = await keys
    .listIndexes()
    .toArray()
    .catch(() => [])
  const expiry = existing.find(
    (index) => index.name === 'expiresAt_ttl' || index.name === 'expiresAt_1',
  )
  if (expiry !== undefined) return expiry.name === 'expiresAt_ttl'
  try {
    await keys.createIndexes([{ ...IDEMPOTENCY_TTL_INDEX, key: { expiresAt: 1 } }])
    return true
  } catch (error) {
    if (!isTtlUnsupported(error)) throw error
  }
  await keys.createIndexes([{ key: { expiresAt: 1 }, name: 'expiresAt_1' }])
  return false
}
