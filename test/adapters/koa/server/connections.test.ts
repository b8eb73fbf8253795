import { expect } from 'chai'
import { MAX_PIPELINED } from '../../../../adapters/koa/index.js'
import { serve, send, type Client } from '../../../support/http.js'
import { openRaw, type RawConnection } from '../../../support/raw.js'

const LIMITS = {
  maxConnections: 6,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 65_000,
}

/** A keep-alive connection that has had one answer and now sits idle. */
const idle = async (port: number): Promise<RawConnection> => {
  const conn = await openRaw(port)
  conn.socket.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n')
  await conn.waitFor(/ok$/)
  return conn
}

/** A request whose body does not finish until told. */
const busy = async (port: number): Promise<RawConnection> => {
  const conn = await openRaw(port)
  conn.socket.write('POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\n12')
  return conn
}

const slowloris = async (port: number): Promise<RawConnection> => {
  const conn = await openRaw(port)
  conn.socket.write('GET / HTTP/1.1\r\nHost: x\r\nX-Slow: ')
  return conn
}

describe('HTTP: the connection cap', () => {
  let client: Client
  const held: RawConnection[] = []
  beforeEach(async () => {
    client = await serve((req, res) => {
      if (req.method === 'POST') req.resume().on('end', () => res.end('posted'))
      else res.end('ok')
    }, LIMITS)
  })
  afterEach(async () => {
    held.splice(0).forEach((c) => c.socket.destroy())
    await client.close()
  })

  it('makes room for a fresh client by closing the oldest idle or slowloris connection', async () => {
    for (let i = 0; i < 3; i++) held.push(await idle(client.port))
    for (let i = 0; i < 3; i++) held.push(await slowloris(client.port))
    const reply = await send(client.port, { path: '/' })
    expect(reply.status).to.equal(200)
    await held[0]?.closed // the oldest idle one made room
    const second = await send(client.port, { path: '/' })
    expect(second.status).to.equal(200)
  })

  it(`answers up to ${MAX_PIPELINED} requests pipelined behind one; closes a connection that sends more`, async () => {
    const later = await serve((_req, res) => void setImmediate(() => res.end('ok')), LIMITS)
    const burst = (n: number) => 'GET / HTTP/1.1\r\nHost: x\r\n\r\n'.repeat(n)
    const answers = (conn: RawConnection) => conn.received().match(/HTTP\/1\.1 200 /g)?.length ?? 0
    try {
      const deep = await openRaw(later.port)
      held.push(deep)
      deep.socket.write(burst(1 + MAX_PIPELINED))
      for (let waited = 0; answers(deep) < 1 + MAX_PIPELINED && waited < 3000; waited += 20)
        await new Promise((r) => setTimeout(r, 20))
      expect(answers(deep)).to.equal(1 + MAX_PIPELINED)

      const flood = await openRaw(later.port)
      held.push(flood)
      flood.socket.write(burst(600))
      await flood.closed
      expect(answers(flood)).to.be.below(600)
      expect((await send(later.port, { path: '/' })).status).to.equal(200)
    } finally {
      await later.close()
    }
  })

  it(`closes a connection that pipelines more than ${MAX_PIPELINED} requests with an unknown Expect`, async () => {
    // The first request is never answered: the 417s behind it wait, as any request would.
    const holding = await serve((req, res) => void (req.url === '/hold' || res.end('ok')), LIMITS)
    try {
      const conn = await openRaw(holding.port)
      held.push(conn)
      const refused = 'GET / HTTP/1.1\r\nHost: x\r\nExpect: x\r\n\r\n'
      conn.socket.write(`GET /hold HTTP/1.1\r\nHost: x\r\n\r\n${refused.repeat(600)}`)
      const timedOut = new Promise<'open'>((r) => setTimeout(() => r('open'), 2000))
      expect(await Promise.race([conn.closed.then(() => 'closed'), timedOut])).to.equal('closed')
    } finally {
      await holding.close()
    }
  })

  it('frees the places of requests refused for a slow body, though their clients keep their side open', async () => {
    const quick = await serve((req, res) => void req.resume().on('end', () => res.end('ok')), {
      ...LIMITS,
      headersTimeoutMs: 500,
      requestTimeoutMs: 500,
    })
    try {
      for (let i = 0; i < LIMITS.maxConnections; i++) {
        const conn = await openRaw(quick.port, { allowHalfOpen: true })
        conn.socket.write('POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\n12')
        held.push(conn)
      }
      await Promise.all(held.map((conn) => conn.waitFor(/^HTTP\/1\.1 408 /)))
      // Answered, and no client closed: the server must have closed them all the same.
      const reply = await send(quick.port, { path: '/' })
      expect(reply.status).to.equal(200)
    } finally {
      await quick.close()
    }
  })

  it('at the cap, cuts the oldest request in progress of the holder with the most for a newcomer', async () => {
    for (let i = 0; i < LIMITS.maxConnections; i++) held.push(await busy(client.port))
    await new Promise((r) => setTimeout(r, 100)) // until the server has read their headers
    const reply = await send(client.port, { path: '/' })
    expect(reply.status).to.equal(200)
    await held[0]?.closed
    // The others were not cut: they finish when their bodies do.
    const second = held[1] as RawConnection
    second.socket.write('34567890')
    await second.waitFor(/posted$/)
  })
})
