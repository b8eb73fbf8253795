import type { Scope, StoredKey } from '../../core/index.js'

/** The collection of minted API keys. */
export const API_KEYS_COLLECTION = 'api_keys'
/**
 * One document, `{ _id: 'api_keys', token }`, whose token every change of a key replaces: an
 * instance reads it to learn whether anything changed, and reads the keys only when it did.
 */
export const API_KEYS_VERSION_COLLECTION = 'api_keys_version'

export type KeyDocument = {
  _id: string
  digest: string
  label: string
  scopes: Scope[]
  createdAt: Date
  expiresAt: Date | null
  revokedAt: Date | null
}

export type VersionDocument = { _id: string; token: string }

const ms = (d: Date | null): number | null => (d === null ? null : d.getTime())
const date = (n: number | null): Date | null => (n === null ? null : new Date(n))

export const storedKeyOf = (d: KeyDocument): StoredKey => ({
  id: d._id,
  digest: d.digest,
  label: d.label,
  scopes: d.scopes,
  createdAt: d.createdAt.getTime(),
  expiresAt: ms(d.expiresAt),
  revokedAt: ms(d.revokedAt),
})

export const documentOf = (key: StoredKey): KeyDocument => ({
  _id: key.id,
  digest: key.digest,
  label: key.label,
  scopes: [...key.scopes],
  createdAt: new Date(key.createdAt),
  expiresAt: date(key.expiresAt),
  revokedAt: date(key.revokedAt),
})
