import * as E from 'fp-ts/lib/Either.js'
import * as O from 'fp-ts/lib/Option.js'
import * as TE from 'fp-ts/lib/TaskEither.js'
import {
  lapsed,
  unauthenticated,
  type StoreUnavailable,
  type Unauthenticated,
} from '../domain/errors.js'
import type { ApiKeys, Principal } from '../ports/api-keys.js'

/** What {@link authenticate} needs: the key lookup, and optionally a clock. */
export type AuthenticateDeps = ApiKeys & {
  /** The clock, in epoch milliseconds, against which expiry is checked (default: the system's). */
  readonly now?: () => number
}

/** A known key, unless it was revoked or has expired by `now`. */
const lapse = (now: number, principal: Principal): E.Either<Unauthenticated, Principal> =>
  principal.revoked === true
    ? E.left(lapsed('revoked'))
    : principal.expiresAt !== undefined && principal.expiresAt <= now
      ? E.left(lapsed('expired'))
      : E.right(principal)

/**
 * Checks a presented API key (how it arrived, a header or else, is the adapter's business): an
 * unknown key is invalid; a known key past its expiry or revoked counts as lapsed.
 */
export const authenticate =
  (deps: AuthenticateDeps) =>
  (apiKey: string): TE.TaskEither<Unauthenticated | StoreUnavailable, Principal> => {
    // Written out rather than piped: every request passes here (see get-pet.ts).
    const verify = deps.verifyApiKey(apiKey)
    return () =>
      verify().then((found) => {
        if (E.isLeft(found)) return found
        if (O.isNone(found.right)) return E.left(unauthenticated(true))
        return lapse((deps.now ?? Date.now)(), found.right.value)
      })
  }
