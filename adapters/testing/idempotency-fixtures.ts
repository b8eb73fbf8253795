import assert from 'node:assert/strict'
import type {
  ClaimResult,
  IdempotencyClaim,
  IdempotencyKey,
  IdempotencyRecord,
  IdempotencyScope,
} from '../../core/index.js'

/** A key of the API key `keyId`. */
export const scope = (key: string, keyId = 'key-a'): IdempotencyScope => ({
  keyId,
  key: key as IdempotencyKey,
})

/** How long the contract's claims keep their key. */
export const WINDOW_MS = 600_000

/**
 * A claim made at `now`: leased for a second, kept for WINDOW_MS. Times start from the real
 * clock, so that a store whose expiry also runs on its own (a TTL index) keeps the records under
 * test while it runs.
 */
export const claimAt = (now: number): IdempotencyClaim => ({
  fingerprint: 'fp',
  leaseUntil: now + 1000,
  expiresAt: now + WINDOW_MS,
})

/** The op of a Claimed result; fails the test on Found. */
export const claimedOp = (result: ClaimResult): string => {
  assert.equal(result._tag, 'Claimed', 'a new key must be Claimed')
  return result._tag === 'Claimed' ? result.op : ''
}

/** The record of a Found result; fails the test on Claimed. */
export const foundRecord = (result: ClaimResult): IdempotencyRecord => {
  assert.equal(result._tag, 'Found', 'a key held by a live record must be Found')
  if (result._tag !== 'Found') throw new Error('unreachable')
  return result.record
}
