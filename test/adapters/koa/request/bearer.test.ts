import { expect } from 'chai'
import fc from 'fast-check'
import * as E from 'fp-ts/lib/Either.js'
import { bearerTokenOf, isBearerToken } from '../../../../adapters/koa/request/bearer.js'

const missing = E.left({ _tag: 'Unauthenticated', presented: false })
const malformed = E.left({ _tag: 'Unauthenticated', presented: true })

describe('Authorization: Bearer (RFC 6750)', () => {
  it('takes the token of a Bearer header, the scheme in any case', () => {
    expect(bearerTokenOf('Bearer k2-secret')).to.deep.equal(E.right('k2-secret'))
    expect(bearerTokenOf('bearer  a.b~c+d/e==  ')).to.deep.equal(E.right('a.b~c+d/e=='))
    expect(bearerTokenOf('BEARER x')).to.deep.equal(E.right('x'))
  })

  it('counts no header, another scheme, or Bearer without a token as no credential', () => {
    for (const header of [
      undefined,
      '',
      'Basic abc',
      'Bearerx abc',
      ['Bearer a'],
      'Bearer',
      'bearer',
      'Bearer ',
      'Bearer    ',
    ])
      expect(bearerTokenOf(header), String(header)).to.deep.equal(missing)
  })

  it('counts a Bearer header with a malformed token as an invalid credential', () => {
    for (const header of ['Bearer a b', 'Bearer a=b', 'Bearer é', `Bearer ${'a'.repeat(513)}`])
      expect(bearerTokenOf(header), header).to.deep.equal(malformed)
  })

  it('accepts exactly the tokens isBearerToken accepts (property)', () => {
    fc.assert(
      // Spaces around the token are the header's padding, not the token's: left out here.
      fc.property(
        fc.string({ maxLength: 40 }).filter((s) => s.trim() === s),
        (token) => {
          const taken = bearerTokenOf(`Bearer ${token}`)
          expect(E.isRight(taken)).to.equal(isBearerToken(token))
        },
      ),
    )
  })
})
