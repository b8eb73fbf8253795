import type { Db } from 'mongodb'
import { IDEMPOTENCY_KEYS } from './idempotency-store.js'
import { ensureIndex, indexNames, type IndexSpec } from './index-build.js'

/** The TTL index that lets MongoDB delete expired idempotency records. */
export const IDEMPOTENCY_TTL_INDEX: IndexSpec = {
  key: { expiresAt: 1 },
  name: 'expiresAt_ttl',
  expireAfterSeconds: 0,
}
const EXPIRY_INDEX: IndexSpec = { key: { expiresAt: 1 }, name: 'expiresAt_1' }

/** How a server without TTL indexes answers one (FerretDB v1: code 238, NotImplemented). */
const isTtlUnsupported = (error: unknown): boolean => {
  const { code, codeName } = (error ?? {}) as { code?: unknown; codeName?: unknown }
  return code === 238 || codeName === 'NotImplemented'
}

/**
 * The TTL index lets MongoDB delete expired keys by itself. A server without TTL indexes gets a
 * plain index on `expiresAt` instead, which the explicit purge uses; the purge runs on every
 * server, so expiry never depends on the TTL index. The uniqueness of (API key id, key) is the
 * `_id` index (idempotency-store.ts). Returns whether the TTL index is in place.
 */
export const ensureIdempotencyIndexes = async (db: Db): Promise<boolean> => {
  const keys = db.collection(IDEMPOTENCY_KEYS)
  // Asked first, so a restart never sends the TTL option again over an existing plain index.
  const existing = await indexNames(keys)
  if (existing.has(IDEMPOTENCY_TTL_INDEX.name)) return true
  if (existing.has(EXPIRY_INDEX.name)) return false
  try {
    await ensureIndex(keys, IDEMPOTENCY_TTL_INDEX, existing)
    return true
  } catch (error) {
    if (!isTtlUnsupported(error)) throw error
  }
  await ensureIndex(keys, EXPIRY_INDEX, existing)
  return false
}
