import type * as O from 'fp-ts/lib/Option.js'
import type * as TE from 'fp-ts/lib/TaskEither.js'
import type { StoreUnavailable } from '../domain/errors.js'

/** Who is calling. `keyId` is a label safe to log; the key itself never is. */
export type Principal = { readonly keyId: string }

/** Looks a presented API key up. Implementations compare keys in constant time. */
export type VerifyApiKey = (
  presented: string,
) => TE.TaskEither<StoreUnavailable, O.Option<Principal>>

export type ApiKeys = { readonly verifyApiKey: VerifyApiKey }
