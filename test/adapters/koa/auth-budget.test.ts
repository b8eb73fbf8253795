import { Writable } from 'node:stream'
import { setTimeout as sleep } from 'node:timers/promises'
import { expect } from 'chai'
import { pino } from 'pino'
import { auth, startTestApi, type TestApi } from '../../support/app.js'

/** The failure budget per address, on the real clock: a valid key never pays for others. */
describe('HTTP: the failed-authentication budget and the client address', function () {
  this.timeout(20_000)
  let api: TestApi | undefined
  afterEach(() => api?.close())

  const statusOf = async (headers: Record<string, string>) =>
    (await (api as TestApi).request({ path: '/v1/pets', headers })).status

  it('an anonymous stream at 10 requests a second from an address leaves its keyed client 100% 200s', async () => {
    api = await startTestApi({ env: { AUTH_FAILURE_BURST: '10', AUTH_FAILURE_RPM: '60' } })
    const anonymous: number[] = []
    const keyed: number[] = []
    const until = Date.now() + 3000
    const stream = async (headers: Record<string, string>, into: number[]) => {
      while (Date.now() < until) {
        into.push(await statusOf(headers))
        await sleep(100)
      }
    }
    await Promise.all([stream({}, anonymous), stream(auth, keyed)])
    expect(anonymous.length).to.be.greaterThan(20)
    // The stream did spend the budget: its later requests were refused.
    expect(anonymous).to.include(429)
    expect(keyed.length).to.be.greaterThan(20)
    expect(keyed.filter((status) => status !== 200)).to.deep.equal([])
  })

  it('behind a trusted proxy, each client has its own budget; IPv6 clients per /64', async () => {
    api = await startTestApi({ env: { TRUST_PROXY: '127.0.0.1', AUTH_FAILURE_BURST: '2' } })
    const from = (address: string) => ({ 'X-Forwarded-For': address })
    for (let i = 0; i < 2; i++) expect(await statusOf(from('198.51.100.1'))).to.equal(401)
    expect(await statusOf(from('198.51.100.1'))).to.equal(429)
    expect(await statusOf(from('198.51.100.2'))).to.equal(401)
    expect(await statusOf({ ...from('198.51.100.1'), ...auth })).to.equal(200)
    // Another address of the same /64 shares the budget; the next /64 has its own.
    for (let i = 0; i < 2; i++) expect(await statusOf(from('2001:db8:0:1::a'))).to.equal(401)
    expect(await statusOf(from('2001:db8:0:1:ffff::b'))).to.equal(429)
    expect(await statusOf(from('2001:db8:0:2::a'))).to.equal(401)
    // IPv4-mapped addresses, in any case, are their IPv4 clients: one budget each.
    expect(await statusOf(from('::FFFF:198.51.100.1'))).to.equal(429)
    for (let i = 0; i < 2; i++) expect(await statusOf(from('::FFFF:198.51.100.3'))).to.equal(401)
    expect(await statusOf(from('::ffff:c633:6403'))).to.equal(429)
    expect(await statusOf(from('::FFFF:198.51.100.4'))).to.equal(401)
  })

  it('ignores forwarding headers from a peer that is not a trusted proxy', async () => {
    api = await startTestApi({ env: { TRUST_PROXY: '10.0.0.0/8', AUTH_FAILURE_BURST: '2' } })
    for (let i = 0; i < 2; i++)
      expect(await statusOf({ 'X-Forwarded-For': `198.51.100.${i}` })).to.equal(401)
    expect(await statusOf({ 'X-Forwarded-For': '198.51.100.9' })).to.equal(429)
  })

  it('logs the client address the proxy names, in the header it writes only', async () => {
    const lines: string[] = []
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(...chunk.toString('utf8').split('\n').filter(Boolean))
        done()
      },
    })
    const env = { TRUST_PROXY: '1', TRUST_PROXY_HEADER: 'Forwarded' }
    api = await startTestApi({ env, logger: pino({ level: 'info' }, sink) })
    await api.request({ path: '/v1/pets', headers: { ...auth, Forwarded: 'for="[2001:DB8::7]"' } })
    await api.request({ path: '/v1/pets', headers: { ...auth, 'X-Forwarded-For': '192.0.2.8' } })
    await api.request({ path: '/v1/pets', headers: auth })
    const clients = lines.map((line) => (JSON.parse(line) as { client?: string }).client)
    expect(clients).to.deep.equal(['2001:db8::7', '127.0.0.1', '127.0.0.1'])
  })
})
