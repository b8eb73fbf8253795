import { connect, type Socket } from 'node:net'
import { setTimeout as sleep } from 'node:timers/promises'
import { expect } from 'chai'
import type { HttpLimits } from '../../../adapters/koa/index.js'
import { serve, type Client } from '../../support/http.js'

const BIG = Buffer.alloc(8 * 2 ** 20, 'x') // far more than a socket's buffers hold

/** A connection from `from` (any 127/8 address is this host), its bytes as they come. */
const open = (port: number, from = '127.0.0.1') =>
  new Promise<{ socket: Socket; text: () => string; closed: Promise<void> }>((resolve, reject) => {
    const socket = connect({ port, host: '127.0.0.1', localAddress: from })
    let text = ''
    socket.on('data', (c: Buffer) => (text += c.toString('latin1')))
    socket.on('error', () => {})
    const closed = new Promise<void>((done) => socket.once('close', () => done()))
    socket.once('connect', () => resolve({ socket, text: () => text, closed }))
    socket.once('error', reject)
  })

type Conn = Awaited<ReturnType<typeof open>>

const settle = () => sleep(100)

describe('HTTP: the connection cap shared out', () => {
  let client: Client
  const held: Conn[] = []
  /** `/big` answers 8 MB; a request with `x-key` marks its connection keyed; POST never ends. */
  const start = async (limits: Partial<HttpLimits>) => {
    client = await serve(
      (req, res, _inviteBody, markKeyed) => {
        const key = req.headers['x-key']
        if (typeof key === 'string') markKeyed?.(key)
        if (req.method === 'POST') return // a request in progress that never ends
        res.end(req.url === '/big' ? BIG : 'ok')
      },
      {
        maxConnections: 4,
        headersTimeoutMs: 10_000,
        requestTimeoutMs: 30_000,
        keepAliveTimeoutMs: 65_000,
        ...limits,
      },
    )
  }
  const conn = async (request: string, from?: string) => {
    const c = await open(client.port, from)
    held.push(c)
    c.socket.write(request)
    await settle()
    return c
  }
  const stalled = (from?: string) => conn('GET /big HTTP/1.1\r\nHost: x\r\n\r\n', from)
  const keyedBusy = (from?: string, key = '1') =>
    conn(`POST / HTTP/1.1\r\nHost: x\r\nx-key: ${key}\r\nContent-Length: 5\r\n\r\n`, from)
  const keyedIdle = (from?: string, key = '1') =>
    conn(`GET / HTTP/1.1\r\nHost: x\r\nx-key: ${key}\r\n\r\n`, from)
  const fresh = async (from?: string) => {
    const c = await conn('GET / HTTP/1.1\r\nHost: x\r\n\r\n', from)
    await sleep(100)
    return c.text()
  }
  afterEach(async () => {
    held.splice(0).forEach((c) => c.socket.destroy())
    await client.close()
  })

  it('makes room by closing a connection whose answer stalled (its client does not read)', async () => {
    await start({})
    for (let i = 0; i < 4; i++) await stalled()
    expect(await fresh()).to.match(/^HTTP\/1\.1 200 /)
    await held[0]?.closed // the oldest stalled one gave way
  })

  it('closes one of the holder with the most, whatever it is doing; anonymous first on a tie', async () => {
    await start({})
    const busy = [await keyedBusy(undefined, 'a'), await keyedBusy(undefined, 'a')]
    await keyedBusy(undefined, 'a')
    const other = await keyedIdle(undefined, 'b')
    expect(await fresh()).to.match(/^HTTP\/1\.1 200 /) // a holds 3: its oldest gives way
    await busy[0]?.closed
    expect(await fresh()).to.match(/^HTTP\/1\.1 200 /) // a holds 2, b 1, the anonymous share 1
    await busy[1]?.closed
    expect(await fresh()).to.match(/^HTTP\/1\.1 200 /) // a 1, b 1, anonymous 2: its idle one
    await held[4]?.closed
    expect(other.socket.readyState).to.equal('open')
  })

  it('keeps anonymous connections to their share, though the cap has room', async () => {
    await start({ maxConnections: 10, maxAnonymousConnections: 2 })
    const first = await stalled()
    await stalled()
    expect(await fresh()).to.match(/^HTTP\/1\.1 200 /)
    await first.closed
    // Keyed ones are not counted: all of the rest of the cap is theirs.
    for (let i = 0; i < 7; i++) await keyedBusy()
    expect(await fresh()).to.match(/^HTTP\/1\.1 200 /)
  })

  it('caps connections per client address; another address, or a trusted proxy, is not touched', async () => {
    await start({ maxConnections: 10, maxConnectionsPerAddress: 2 })
    const own = await keyedBusy('127.0.0.2')
    await keyedBusy('127.0.0.2')
    // At its cap an address's newcomer takes the place of one of its own, never another's.
    const elsewhere = await keyedBusy('127.0.0.3')
    expect(await fresh('127.0.0.2')).to.match(/^HTTP\/1\.1 200 /)
    await own.closed
    expect(elsewhere.socket.readyState).to.equal('open')
    expect(await fresh('127.0.0.3')).to.match(/^HTTP\/1\.1 200 /)
    // Within the address, the holder with the most: on a tie, the anonymous one.
    const anonymous = await stalled('127.0.0.4')
    await keyedBusy('127.0.0.4')
    expect(await fresh('127.0.0.4')).to.match(/^HTTP\/1\.1 200 /)
    await anonymous.closed
    await client.close()
    await start({ maxConnections: 10, maxConnectionsPerAddress: 2, trustProxy: { hops: 1 } })
    for (let i = 0; i < 4; i++) await keyedBusy('127.0.0.2')
    expect(await fresh('127.0.0.2')).to.match(/^HTTP\/1\.1 200 /)
  })
})
