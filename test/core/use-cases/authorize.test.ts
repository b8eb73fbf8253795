import { expect } from 'chai'
import fc from 'fast-check'
import * as E from 'fp-ts/lib/Either.js'
import * as O from 'fp-ts/lib/Option.js'
import * as TE from 'fp-ts/lib/TaskEither.js'
import { ALL_SCOPES, authenticate, authorize, type Principal } from '../../../core/index.js'

const scope = fc.constantFrom(...ALL_SCOPES)
const principal = fc.record(
  {
    keyId: fc.string(),
    scopes: fc.subarray([...ALL_SCOPES]),
    expiresAt: fc.integer({ min: 0, max: 2000 }),
    revoked: fc.boolean(),
  },
  { requiredKeys: ['keyId', 'scopes'] },
)

describe('authorize and authenticate (scopes, expiry, revocation)', () => {
  it('lets a principal through exactly when it holds the scope (property)', () => {
    fc.assert(
      fc.property(principal, scope, (p, s) => {
        const result = authorize(s)(p)
        if (p.scopes.includes(s)) expect(result).to.deep.equal(E.right(p))
        else expect(result).to.deep.equal(E.left({ _tag: 'InsufficientScope', scope: s }))
      }),
    )
  })

  it('refuses a revoked key, then an expired one (from its expiry instant on), else passes it (property)', async () => {
    await fc.assert(
      fc.asyncProperty(principal, fc.integer({ min: 0, max: 2000 }), async (p, now) => {
        const found: Principal = p
        const result = await authenticate({
          verifyApiKey: () => TE.right(O.some(found)),
          now: () => now,
        })('some-key')()
        const expected =
          p.revoked === true
            ? E.left({ _tag: 'Unauthenticated', presented: true, lapsed: 'revoked' })
            : p.expiresAt !== undefined && p.expiresAt <= now
              ? E.left({ _tag: 'Unauthenticated', presented: true, lapsed: 'expired' })
              : E.right(p)
        expect(result).to.deep.equal(expected)
      }),
    )
  })
})
