import type { IncomingMessage, ServerResponse } from 'node:http'
import { expect } from 'chai'
import Koa from 'koa'
import { prefersGzip } from '../../../../adapters/koa/request/media-type.js'

const koa = new Koa()
const koaSays = (value: string): boolean => {
  const req = { headers: { 'accept-encoding': value }, socket: {} } as unknown as IncomingMessage
  const res = { getHeader: () => undefined, setHeader: () => {} } as unknown as ServerResponse
  return koa.createContext(req, res).acceptsEncodings('gzip', 'identity') === 'gzip'
}

describe('Accept-Encoding: gzip or identity', () => {
  it("chooses as Koa's acceptsEncodings does, for every mix of up to three rules", () => {
    const rules = ['gzip', 'GZIP', 'identity', '*', 'br', 'gzip;q=0', 'gzip;q=0.5', 'gzip; q=1']
    rules.push('identity;q=0', 'identity;q=0.5', '*;q=0', '*;q=0.3', 'br;q=0.1', 'identity;q=1.0')
    let compared = 0
    for (const a of rules)
      for (const b of ['', ...rules])
        for (const c of ['', ...rules.slice(0, 6)]) {
          const value = [a, b, c].filter(Boolean).join(', ')
          expect(prefersGzip(value), value).to.equal(koaSays(value))
          compared++
        }
    expect(compared).to.equal(14 * 15 * 7)
  })

  it('sends the bytes as they are to a client that says nothing', () => {
    expect(prefersGzip('')).to.equal(false)
  })
})
