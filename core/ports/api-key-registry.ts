import type * as O from 'fp-ts/lib/Option.js'
import type * as TE from 'fp-ts/lib/TaskEither.js'
import type { StoreUnavailable } from '../domain/errors.js'
import type { Scope } from '../domain/scope.js'

/**
 * A key as stored: its SHA-256 `digest` (hex), never the key. Times are epoch milliseconds;
 * `null` means never expires / not revoked.
 */
export type StoredKey = {
  readonly id: string
  readonly digest: string
  readonly label: string
  readonly scopes: ReadonlyArray<Scope>
  readonly createdAt: number
  readonly expiresAt: number | null
  readonly revokedAt: number | null
}

/** Every stored key, and a token that changes whenever any of them does. */
export type KeySnapshot = { readonly version: string; readonly keys: ReadonlyArray<StoredKey> }

/** Where minted keys live (MongoDB, or a file on the in-memory default). */
export type ApiKeyRegistry = {
  /** Every key stored, revoked and expired ones included. */
  readonly listKeys: () => TE.TaskEither<StoreUnavailable, ReadonlyArray<StoredKey>>
  /**
   * The keys, unless their version is still `seen`: what a running instance polls, so that a
   * check costs the same however many keys there are and only a change is read in full.
   */
  readonly readKeysIfChanged: (
    seen: string | undefined,
  ) => TE.TaskEither<StoreUnavailable, O.Option<KeySnapshot>>
  /** Stores a new key. */
  readonly addKey: (key: StoredKey) => TE.TaskEither<StoreUnavailable, void>
  /** False when no key has that id. Revoking twice keeps the first time. */
  readonly revokeKey: (id: string, at: number) => TE.TaskEither<StoreUnavailable, boolean>
  /** Removes the keys expired or revoked before `before` (epoch ms); how many it removed. */
  readonly pruneKeys: (before: number) => TE.TaskEither<StoreUnavailable, number>
}
