import { randomBytes } from 'node:crypto'
import { digestOf } from '../../adapters/in-memory/index.js'
import type { Scope, StoredKey } from '../../core/index.js'

/**
 * A new key: 256 random bits, base64url (43 characters, valid in a Bearer header). Only its
 * SHA-256 is stored: enough for a random key of this size, no salt or slow hash needed.
 */
export const mintKey = (
  label: string,
  scopes: ReadonlyArray<Scope>,
  expiresInMs: number | null,
  now: number,
): { key: string; stored: StoredKey } => {
  const key = randomBytes(32).toString('base64url')
  return {
    key,
    stored: {
      id: `key-${randomBytes(6).toString('hex')}`,
      digest: digestOf(key),
      label,
      scopes,
      createdAt: now,
      expiresAt: expiresInMs === null ? null : now + expiresInMs,
      revokedAt: null,
    },
  }
}

const when = (ms: number | null) => (ms === null ? '-' : new Date(ms).toISOString())

/** The listing: never the key (it is not stored) nor its digest. */
export const keyTable = (keys: ReadonlyArray<StoredKey>): string => {
  const rows = [
    ['id', 'label', 'scopes', 'created', 'expires', 'revoked'],
    ...keys.map((k) => [
      k.id,
      k.label,
      k.scopes.join(','),
      when(k.createdAt),
      when(k.expiresAt),
      when(k.revokedAt),
    ]),
  ]
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)))
  return rows
    .map((r) =>
      r
        .map((cell, i) => cell.padEnd(widths[i]!))
        .join('  ')
        .trimEnd(),
    )
    .join('\n')
}
