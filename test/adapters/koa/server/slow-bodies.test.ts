import { setTimeout as sleep } from 'node:timers/promises'
import { expect } from 'chai'
import { serve, send, type Client } from '../../../support/http.js'
import { openRaw, type RawConnection } from '../../../support/raw.js'

const LIMITS = {
  maxConnections: 4,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 65_000,
  bodyMinBytesPerSecond: 500,
  bodyTimeoutMs: 20_000,
}

/** A keyed request whose 8000-byte body arrives `perSecond` bytes a second, in ten drips. */
const dripping = async (port: number, perSecond: number) => {
  const conn = await openRaw(port, { allowHalfOpen: true })
  conn.socket.write('POST / HTTP/1.1\r\nHost: x\r\nx-key: a\r\nContent-Length: 8000\r\n\r\n')
  const drip = setInterval(() => conn.socket.write('x'.repeat(perSecond / 10)), 100)
  void conn.closed.then(() => clearInterval(drip))
  return { conn, stop: () => clearInterval(drip) }
}

describe('HTTP: request bodies must keep a pace', function () {
  this.timeout(20_000)
  let client: Client
  const held: Array<{ conn: RawConnection; stop: () => void }> = []
  const start = async (limits: Partial<typeof LIMITS> = {}) => {
    client = await serve(
      (req, res, _inviteBody, markKeyed) => {
        const key = req.headers['x-key']
        if (typeof key === 'string') markKeyed?.(key)
        req.resume().on('end', () => res.end('done'))
      },
      { ...LIMITS, ...limits },
    )
  }
  afterEach(async () => {
    held.splice(0).forEach((h) => (h.stop(), h.conn.socket.destroy()))
    await client.close()
  })

  it('at the cap, a keyed body below the minimum rate gives way; one above it does not', async () => {
    await start()
    for (let i = 0; i < LIMITS.maxConnections; i++) held.push(await dripping(client.port, 2000))
    await sleep(2500) // more than two ticks: each body has been judged
    expect((await send(client.port, { path: '/' })).status, 'all making progress').to.equal(503)
    held.splice(0).forEach((h) => (h.stop(), h.conn.socket.destroy()))
    await sleep(100)
    for (let i = 0; i < LIMITS.maxConnections; i++) held.push(await dripping(client.port, 10))
    await sleep(2500)
    expect((await send(client.port, { path: '/' })).status, 'all stalled').to.equal(200)
    await held[0]?.conn.closed // the oldest stalled one gave way
  })

  it('at the cap, a stalled keyed body gives way before a new connection whose request is on its way', async () => {
    await start()
    for (let i = 0; i < LIMITS.maxConnections - 1; i++) held.push(await dripping(client.port, 10))
    await sleep(2500)
    const fresh = await openRaw(client.port) // opened, nothing sent yet
    await sleep(50)
    expect((await send(client.port, { path: '/' })).status).to.equal(200)
    await held[0]?.conn.closed
    expect(fresh.socket.readyState).to.equal('open')
    fresh.socket.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n')
    await fresh.waitFor(/done$/)
    fresh.socket.destroy()
  })

  it('answers 408 and closes a body not whole within BODY_TIMEOUT_MS, however steady', async () => {
    await start({ bodyTimeoutMs: 1000 })
    const { conn } = await dripping(client.port, 1000) // would take 8 s
    const opened = Date.now()
    await conn.closed
    expect(conn.received()).to.match(/^HTTP\/1\.1 408 /)
    expect(conn.received()).to.include('"code":"request_timeout"')
    expect(Date.now() - opened).to.be.within(900, 3500) // checked every second
  })
})
