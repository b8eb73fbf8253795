import type { IncomingMessage } from 'node:http'
import { expect } from 'chai'
import { budgetKeyOf } from '../../../../adapters/koa/request/address-budget.js'
import { normalAddress } from '../../../../adapters/koa/request/address-text.js'
import { clientAddress } from '../../../../adapters/koa/request/client-address.js'
import type { TrustProxy } from '../../../../adapters/koa/request/proxy-trust.js'

const request = (peer: string, headers: Record<string, string> = {}) =>
  ({ socket: { remoteAddress: peer }, headers }) as unknown as IncomingMessage

const of = (trust: TrustProxy | undefined, peer: string, headers?: Record<string, string>) =>
  clientAddress(trust).of(request(peer, headers))

describe('the client address of a request', () => {
  const xff = { 'x-forwarded-for': '198.51.100.7, 203.0.113.9, 10.0.0.2' }

  it('is the peer, forwarding headers ignored, when no proxy is trusted', () => {
    expect(of(undefined, '192.0.2.1', xff)).to.equal('192.0.2.1')
    expect(of(undefined, '::ffff:192.0.2.1')).to.equal('192.0.2.1')
  })

  it('with a hop count, is the address that many hops back from the peer', () => {
    expect(of({ hops: 1 }, '10.0.0.3', xff)).to.equal('10.0.0.2')
    expect(of({ hops: 2 }, '10.0.0.3', xff)).to.equal('203.0.113.9')
    expect(of({ hops: 3 }, '10.0.0.3', xff)).to.equal('198.51.100.7')
    // Fewer hops than trusted: the first one named is as far as anyone can say.
    expect(of({ hops: 9 }, '10.0.0.3', xff)).to.equal('198.51.100.7')
    expect(of({ hops: 1 }, '10.0.0.3')).to.equal('10.0.0.3')
  })

  it('with addresses, walks back while the hop is a trusted proxy', () => {
    const trust = { addresses: ['10.0.0.0/8'] }
    expect(of(trust, '10.0.0.3', xff)).to.equal('203.0.113.9')
    // A peer that is not a trusted proxy is the client, whatever it claims.
    expect(of(trust, '192.0.2.1', xff)).to.equal('192.0.2.1')
    expect(of({ addresses: ['10.0.0.3', '10.0.0.2', '203.0.113.9'] }, '10.0.0.3', xff)).to.equal(
      '198.51.100.7',
    )
    expect(of({ addresses: ['::1'] }, '::1', { 'x-forwarded-for': '2001:db8::5' })).to.equal(
      '2001:db8::5',
    )
  })

  it("walks past a client on a trusted proxy's own address; a hop count stops at it", () => {
    // The proxy at 10.0.0.10 appended a client on its own host (a sidecar): 10.0.0.10 again.
    const headers = { 'x-forwarded-for': '203.0.113.66, 10.0.0.10' }
    expect(of({ addresses: ['10.0.0.10'] }, '10.0.0.10', headers)).to.equal('203.0.113.66')
    expect(of({ hops: 1 }, '10.0.0.10', headers)).to.equal('10.0.0.10')
  })

  it('reads only the header the proxy writes: a client-written one changes nothing', () => {
    // The proxy appended the peer's address to X-Forwarded-For; the client wrote Forwarded.
    const headers = { forwarded: 'for=203.0.113.66', 'x-forwarded-for': '198.51.100.7' }
    expect(of({ hops: 1 }, '10.0.0.3', headers)).to.equal('198.51.100.7')
    expect(of({ addresses: ['10.0.0.3'] }, '10.0.0.3', headers)).to.equal('198.51.100.7')
    // And the other way round, for a proxy that writes Forwarded.
    const forwarded = { hops: 1, header: 'forwarded' } as const
    expect(of(forwarded, '10.0.0.3', { ...headers, forwarded: 'for=192.0.2.60' })).to.equal(
      '192.0.2.60',
    )
    expect(of(forwarded, '10.0.0.3', { 'x-forwarded-for': '198.51.100.7' })).to.equal('10.0.0.3')
  })

  it('walks Forwarded (RFC 7239) from the right, with quotes, brackets and ports', () => {
    const headers = {
      forwarded: 'for=192.0.2.60;proto=http;by=203.0.113.43, For="[2001:db8:cafe::17]:4711"',
    }
    expect(of({ hops: 1, header: 'forwarded' }, '10.0.0.3', headers)).to.equal('2001:db8:cafe::17')
    expect(of({ hops: 2, header: 'forwarded' }, '10.0.0.3', headers)).to.equal('192.0.2.60')
    const listed = { addresses: ['10.0.0.0/8', '2001:db8:cafe::17'], header: 'forwarded' } as const
    expect(of(listed, '10.0.0.3', headers)).to.equal('192.0.2.60')
    expect(of({ hops: 1 }, '10.0.0.3', { 'x-forwarded-for': '192.0.2.9:5000' })).to.equal(
      '192.0.2.9',
    )
  })

  it('gives one spelling of each address, whatever the proxy wrote', () => {
    const through = (written: string) => of({ hops: 1 }, '10.0.0.3', { 'x-forwarded-for': written })
    for (const written of ['::FFFF:192.0.2.1', '::ffff:c000:201', '[::ffff:192.0.2.1]:80'])
      expect(through(written)).to.equal('192.0.2.1')
    expect(through('2001:DB8:0:0::1')).to.equal('2001:db8::1')
    expect(through('[FE80::1%eth0]:8080')).to.equal('fe80::1')
    expect(
      of({ addresses: ['10.0.0.0/8'] }, '::ffff:10.0.0.3', {
        'x-forwarded-for': '::FFFF:192.0.2.1',
      }),
    ).to.equal('192.0.2.1')
  })

  it('trusts the range names loopback, linklocal and uniquelocal', () => {
    const trust = { addresses: ['loopback', 'uniquelocal'] }
    const headers = { 'x-forwarded-for': '198.51.100.7, 192.168.1.5' }
    expect(of(trust, '127.0.0.1', headers)).to.equal('198.51.100.7')
    expect(of(trust, '::1', headers)).to.equal('198.51.100.7')
    expect(of({ addresses: ['linklocal'] }, '169.254.1.1', headers)).to.equal('192.168.1.5')
  })

  it('stops at the hop that sent an entry that is not an address', () => {
    expect(of({ hops: 2 }, '10.0.0.3', { 'x-forwarded-for': 'unknown, 10.0.0.2' })).to.equal(
      '10.0.0.2',
    )
    expect(of({ hops: 1, header: 'forwarded' }, '10.0.0.3', { forwarded: 'for=_hidden' })).to.equal(
      '10.0.0.3',
    )
    const listed = { addresses: ['10.0.0.0/8'] }
    expect(of(listed, '10.0.0.3', { 'x-forwarded-for': '198.51.100.7, unknown' })).to.equal(
      '10.0.0.3',
    )
  })

  it('says which peers are proxies (their connections carry many clients)', () => {
    expect(clientAddress(undefined).isProxy('10.0.0.1')).to.equal(false)
    expect(clientAddress({ hops: 1 }).isProxy('192.0.2.1')).to.equal(true)
    const listed = clientAddress({ addresses: ['10.0.0.0/8'] })
    expect([listed.isProxy('10.1.2.3'), listed.isProxy('192.0.2.1')]).to.deep.equal([true, false])
  })
})

describe('an address as a proxy wrote it', () => {
  it('is undefined when it is no IP address', () => {
    for (const written of ['unknown', '_hidden', '', '1.2.3', '01.2.3.4', '[1.2.3.4', 'a:b'])
      expect(normalAddress(written), written).to.equal(undefined)
  })
})

describe('the budget a client address draws on', () => {
  it('is the address for IPv4, the /64 for IPv6', () => {
    expect(budgetKeyOf('192.0.2.1')).to.equal('192.0.2.1')
    expect(budgetKeyOf('2001:db8:1:2:aaaa:bbbb:cccc:dddd')).to.equal('2001:db8:1:2::/64')
    expect(budgetKeyOf('2001:db8:1:2::1')).to.equal('2001:db8:1:2::/64')
    expect(budgetKeyOf('2001:db8::1')).to.equal('2001:db8:0:0::/64')
    expect(budgetKeyOf('::1')).to.equal('0:0:0:0::/64')
    expect(budgetKeyOf('fe80::1%eth0')).to.equal('fe80:0:0:0::/64')
    expect(budgetKeyOf('64:ff9b:1:2:3:4:192.0.2.1')).to.equal('64:ff9b:1:2::/64')
    expect(budgetKeyOf('2001:DB8:1:2::9')).to.equal('2001:db8:1:2::/64')
  })
})
