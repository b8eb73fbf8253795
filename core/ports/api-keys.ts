import type * as O from 'fp-ts/lib/Option.js'
import type * as TE from 'fp-ts/lib/TaskEither.js'
import type { StoreUnavailable } from '../domain/errors.js'
import type { Scope } from '../domain/scope.js'

/**
 * Who is calling and what the key allows. `keyId` is a label safe to log; the key itself never
 * is. A key past `expiresAt` (epoch ms) or `revoked` is refused by `authenticate`, which knows
 * the time; the port only reports what it holds.
 */
export type Principal = {
  readonly keyId: string
  readonly scopes: ReadonlyArray<Scope>
  readonly expiresAt?: number
  readonly revoked?: boolean
}

/** Looks a presented API key up. Implementations never compare keys in variable time. */
export type VerifyApiKey = (
  presented: string,
) => TE.TaskEither<StoreUnavailable, O.Option<Principal>>

/** The port `authenticate` reads keys through. */
export type ApiKeys = { readonly verifyApiKey: VerifyApiKey }
