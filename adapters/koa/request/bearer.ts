import * as E from 'fp-ts/lib/Either.js'
import { unauthenticated, type Unauthenticated } from '../../../core/index.js'

/** RFC 6750's b68token, bounded so that a huge header costs nothing to refuse. */
export const BEARER_TOKEN = '[A-Za-z0-9\\-._~+/]{1,512}=*'

const TOKEN_ONLY = new RegExp(`^${BEARER_TOKEN}$`)
/** A whole string that is one bearer token: what an API key must look like. */
export const isBearerToken = (s: string): boolean => TOKEN_ONLY.test(s)

const BEARER = new RegExp(`^bearer +(${BEARER_TOKEN}) *$`, 'i')
/** The scheme followed by something: `Bearer` alone (Node trims the spaces after it) is not. */
const SCHEME_AND_MORE = /^bearer +[^ ]/i

/**
 * The API key of an `Authorization` header (RFC 6750). A header with another scheme, or with
 * the Bearer scheme and no token after it, counts as no credential (§3.1: the challenge then
 * carries no error code); a Bearer header whose token is malformed counts as an invalid one.
 */
export const bearerTokenOf = (authorization: unknown): E.Either<Unauthenticated, string> => {
  if (typeof authorization !== 'string' || !SCHEME_AND_MORE.test(authorization))
    return E.left(unauthenticated(false))
  const token = BEARER.exec(authorization)?.[1]
  return token === undefined ? E.left(unauthenticated(true)) : E.right(token)
}
