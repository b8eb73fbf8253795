import * as E from 'fp-ts/lib/Either.js'
import * as TE from 'fp-ts/lib/TaskEither.js'
import type { AppContext } from '../../request/app-state.js'
import {
  authenticate,
  authorize,
  type AuthenticateDeps,
  type Scope,
} from '../../../../core/index.js'
import { budgetKeyOf } from '../../request/address-budget.js'
import { bearerTokenOf } from '../../request/bearer.js'
import type { Problem } from '../../response/problem.js'
import type { RateLimits } from '../rate-limits.js'
import type { ClientOf } from '../../request/client-address.js'

/**
 * Who may pass, in order: the key, the key's rate, the key's scope. A request without a valid
 * key draws on its client address's failure budget (429 once it is spent, 401 before): a valid
 * key is never refused for what others at its address did.
 * Resolves to the problem that stops the request, or undefined to go on.
 */
export const admission = (
  deps: AuthenticateDeps,
  limits: RateLimits | undefined,
  /** The scope each method needs (scopeByMethod, from the route table). */
  scopeOfMethod: Readonly<Record<string, Scope>>,
  clientOf: ClientOf,
) => {
  const authenticateKey = authenticate(deps)
  /** The header's key, checked: a missing or malformed one is refused without a lookup. */
  const authenticateHeader = (authorization: unknown) => {
    const token = bearerTokenOf(authorization)
    return E.isLeft(token) ? TE.left(token.left) : authenticateKey(token.right)
  }
  return (ctx: AppContext): Promise<Problem | undefined> => {
    // Read now, while the request has its socket: the log line needs it, and a request whose
    // body is refused (413) may have lost its socket by the time the line is written.
    const client = clientOf(ctx.state, ctx.req)
    return authenticateHeader(ctx.req.headers.authorization)().then((principal) => {
      if (E.isLeft(principal))
        return principal.left._tag === 'Unauthenticated' && limits !== undefined
          ? limits.failure(ctx, budgetKeyOf(client), principal.left)
          : principal.left
      ctx.state.principal = principal.right
      ctx.state.markKeyed?.(principal.right.keyId)
      const limited = limits?.admitKey(ctx, principal.right.keyId)
      if (limited !== undefined) return limited
      const scope = scopeOfMethod[ctx.method]
      const allowed = scope === undefined ? undefined : authorize(scope)(principal.right)
      return allowed !== undefined && E.isLeft(allowed) ? allowed.left : undefined
    })
  }
}
