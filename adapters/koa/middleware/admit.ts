import * as E from 'fp-ts/lib/Either.js'
import * as TE from 'fp-ts/lib/TaskEither.js'
import type { AppContext } from '../app-state.js'
import { authenticate, authorize, type AuthenticateDeps, type Scope } from '../../../core/index.js'
import { bearerTokenOf } from '../bearer.js'
import type { Problem } from '../problem.js'
import type { RateLimits } from '../rate-limits.js'

/**
 * Who may pass, in order: the client address's failure budget, the key, the key's rate, the
 * key's scope. Resolves to the problem that stops the request, or undefined to go on.
 */
export const admission = (
  deps: AuthenticateDeps,
  limits: RateLimits | undefined,
  /** The scope each method needs (scopeByMethod, from the route table). */
  scopeOfMethod: Readonly<Record<string, Scope>>,
) => {
  const authenticateKey = authenticate(deps)
  /** The header's key, checked: a missing or malformed one is refused without a lookup. */
  const authenticateHeader = (authorization: unknown) => {
    const token = bearerTokenOf(authorization)
    return E.isLeft(token) ? TE.left(token.left) : authenticateKey(token.right)
  }
  return (ctx: AppContext): Promise<Problem | undefined> => {
    const address = ctx.req.socket.remoteAddress ?? ''
    const blocked = limits?.checkAddress(ctx, address)
    if (blocked !== undefined) return Promise.resolve(blocked)
    return authenticateHeader(ctx.req.headers.authorization)().then((principal) => {
      if (E.isLeft(principal)) {
        if (principal.left._tag === 'Unauthenticated') limits?.chargeFailure(ctx, address)
        return principal.left
      }
      ctx.state.principal = principal.right
      const limited = limits?.admitKey(ctx, principal.right.keyId)
      if (limited !== undefined) return limited
      const scope = scopeOfMethod[ctx.method]
      const allowed = scope === undefined ? undefined : authorize(scope)(principal.right)
      return allowed !== undefined && E.isLeft(allowed) ? allowed.left : undefined
    })
  }
}
