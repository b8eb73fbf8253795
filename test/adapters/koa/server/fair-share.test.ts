import { setTimeout as sleep } from 'node:timers/promises'
import { expect } from 'chai'
import type { HttpLimits } from '../../../../adapters/koa/index.js'
import { serve, send, type Client } from '../../../support/http.js'
import { openRaw, type RawConnection } from '../../../support/raw.js'

const LIMITS = {
  maxConnections: 4,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 65_000,
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

describe('HTTP: the fair share of the connection cap, and the body deadline', function () {
  this.timeout(20_000)
  let client: Client
  const held: Array<{ conn: RawConnection; stop: () => void }> = []
  const start = async (limits: Partial<HttpLimits> = {}) => {
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

  it('at the cap, the key holding the most gives way, whatever its connections are doing', async () => {
    await start()
    const drip = async (key: string) => {
      const conn = await openRaw(client.port)
      conn.socket.write(
        `POST / HTTP/1.1\r\nHost: x\r\nx-key: ${key}\r\nContent-Length: 10\r\n\r\n1`,
      )
      held.push({ conn, stop: () => {} })
      await sleep(50) // until the listener has marked it keyed
      return conn
    }
    const [first, second] = [await drip('a'), await drip('a')]
    const other = await drip('b')
    await drip('a')
    const newcomer = async () => {
      const conn = await openRaw(client.port)
      held.push({ conn, stop: () => {} })
      conn.socket.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n')
      await conn.waitFor(/done$/) // then kept open, idle and anonymous
    }
    // Key a holds three bodies in progress, b one: a newcomer takes the oldest place of a.
    await newcomer()
    await first.closed
    await newcomer()
    await second.closed
    console.log('second') // a still holds the most (two against one and one anonymous)
    await newcomer() // now the anonymous share holds the most: its oldest gives way
    await (held[4] as { conn: RawConnection }).conn.closed
    other.socket.write('234567890')
    await other.waitFor(/done$/)
  })

  it('keeps the anonymous share: a newcomer past it takes the oldest anonymous place', async () => {
    await start({ maxAnonymousConnections: 2 })
    const keyed = await dripping(client.port, 100)
    held.push(keyed)
    const anonymous = [await openRaw(client.port), await openRaw(client.port)]
    held.push(...anonymous.map((conn) => ({ conn, stop: () => {} })))
    await sleep(50)
    expect((await send(client.port, { path: '/' })).status).to.equal(200)
    await anonymous[0]?.closed
    expect(keyed.conn.socket.readyState).to.equal('open')
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
