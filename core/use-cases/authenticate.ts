import { pipe } from 'fp-ts/lib/function.js'
import * as TE from 'fp-ts/lib/TaskEither.js'
import { unauthenticated, type StoreUnavailable, type Unauthenticated } from '../domain/errors.js'
import type { ApiKeys, Principal } from '../ports/api-keys.js'

export type AuthenticateDeps = ApiKeys

/** RFC 6750 b68token syntax, bounded so a huge header costs nothing to refuse. */
const BEARER = /^bearer +([A-Za-z0-9\-._~+/]{1,512}=*) *$/i
const SCHEME = /^bearer(?: |$)/i

/**
 * Checks an `Authorization` header value. A header with another scheme counts as no
 * credential; a Bearer header with a malformed or unknown key counts as an invalid one.
 */
export const authenticate =
  (deps: AuthenticateDeps) =>
  (authorization: unknown): TE.TaskEither<Unauthenticated | StoreUnavailable, Principal> => {
    if (typeof authorization !== 'string' || !SCHEME.test(authorization))
      return TE.left(unauthenticated(false))
    const key = BEARER.exec(authorization)?.[1]
    if (key === undefined) return TE.left(unauthenticated(true))
    return pipe(deps.verifyApiKey(key), TE.chainW(TE.fromOption(() => unauthenticated(true))))
  }
