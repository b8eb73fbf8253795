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

/** RFC 6750 b68token syntax, bounded so a huge header costs nothing to refuse. */
const BEARER = /^bearer +([A-Za-z0-9\-._~+/]{1,512}=*) *$/i
const SCHEME = /^bearer(?: |$)/i

const current =
  (now: number) =>
  (principal: Principal): TE.TaskEither<Unauthenticated, Principal> =>
    principal.revoked === true
      ? TE.left(lapsed('revoked'))
      : principal.expiresAt !== undefined && principal.expiresAt <= now
        ? TE.left(lapsed('expired'))
        : TE.right(principal)

/**
 * Checks an `Authorization` header value. A header with another scheme counts as no
 * credential; a Bearer header with a malformed or unknown key counts as an invalid one; a known
 * key past its expiry or revoked counts as lapsed.
 */
export const authenticate =
  (deps: AuthenticateDeps) =>
  (authorization: unknown): TE.TaskEither<Unauthenticated | StoreUnavailable, Principal> => {
    if (typeof authorization !== 'string' || !SCHEME.test(authorization))
      return TE.left(unauthenticated(false))
    const key = BEARER.exec(authorization)?.[1]
    if (key === undefined) return TE.left(unauthenticated(true))
    return pipe(
      deps.verifyApiKey(key),
      TE.chainW(TE.fromOption(() => unauthenticated(true))),
      TE.chainW(current((deps.now ?? Date.now)())),
    )
  }
