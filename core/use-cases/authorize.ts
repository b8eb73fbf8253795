import * as E from 'fp-ts/lib/Either.js'
import { insufficientScope, type InsufficientScope } from '../domain/errors.js'
import type { Scope } from '../domain/scope.js'
import type { Principal } from '../ports/api-keys.js'

/** Lets an authenticated caller through only when its key holds the scope the operation needs. */
export const authorize =
  (scope: Scope) =>
  (principal: Principal): E.Either<InsufficientScope, Principal> =>
    principal.scopes.includes(scope) ? E.right(principal) : E.left(insufficientScope(scope))
