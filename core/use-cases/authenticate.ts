import { pipe } from 'fp-ts/lib/function.js'
import * as TE from 'fp-ts/lib/TaskEither.js'
import {
  lapsed,
  unauthenticated,
  type StoreUnavailable,
  type Unauthenticated,
} from '../domain/errors.js'
import type { ApiKeys, Principal } from '../ports/api-keys.js'

export type AuthenticateDeps = ApiKeys & {
  /** The clock, in epoch milliseconds, against which expiry is checked (default: the system's). */
  readonly now?: () => number
}

const current =
  (now: number) =>
  (principal: Principal): TE.TaskEither<Unauthenticated, Principal> =>
    principal.revoked === true
      ? TE.left(lapsed('revoked'))
      : principal.expiresAt !== undefined && principal.expiresAt <= now
        ? TE.left(lapsed('expired'))
        : TE.right(principal)

/**
 * Checks a presented API key (how it arrived, a header or else, is the adapter's business): an
 * unknown key is invalid; a known key past its expiry or revoked counts as lapsed.
 */
export const authenticate =
  (deps: AuthenticateDeps) =>
  (apiKey: string): TE.TaskEither<Unauthenticated | StoreUnavailable, Principal> =>
    pipe(
      deps.verifyApiKey(apiKey),
      TE.chainW(TE.fromOption(() => unauthenticated(true))),
      TE.chainW(current((deps.now ?? Date.now)())),
    )
