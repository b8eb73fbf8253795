import type { IncomingMessage } from 'node:http'
import { expect } from 'chai'
import fc from 'fast-check'
import proxyaddr from 'proxy-addr'
import { xForwardedForFromRight } from '../../../../adapters/koa/request/forwarded.js'

describe('X-Forwarded-For read from the right', () => {
  it('gives the entries proxy-addr gives, in the same order', () => {
    const text = fc.string({ unit: fc.constantFrom('1', '.', ',', ' ', ':', 'a'), maxLength: 30 })
    fc.assert(
      fc.property(text, (header) => {
        const req = { headers: { 'x-forwarded-for': header }, socket: { remoteAddress: 'p' } }
        const theirs = proxyaddr.all({
          ...req,
          connection: req.socket,
        } as unknown as IncomingMessage)
        expect([...xForwardedForFromRight(header)], JSON.stringify(header)).to.deep.equal(
          theirs.slice(1),
        )
      }),
      { numRuns: 2000 },
    )
  })
})
