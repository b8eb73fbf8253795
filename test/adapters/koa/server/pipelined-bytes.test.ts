import { setTimeout as sleep } from 'node:timers/promises'
import { connect, type Socket } from 'node:net'
import { expect } from 'chai'
import { serve, type Client } from '../../../support/http.js'

const ANSWER = Buffer.alloc(2 * 2 ** 20, 'x') // far more than the bound, and than a socket's buffers
const BOUND = 64 * 1024

/** A connection that counts the bytes it receives, and reads only when told. */
const openCounting = (port: number) =>
  new Promise<{ socket: Socket; bytes: () => number; closed: Promise<void> }>((resolve) => {
    const socket = connect({ port, host: '127.0.0.1' })
    let bytes = 0
    socket.on('data', (c: Buffer) => (bytes += c.length))
    socket.on('error', () => {})
    const closed = new Promise<void>((done) => socket.once('close', () => done()))
    socket.once('connect', () => resolve({ socket, bytes: () => bytes, closed }))
  })

const pipelined = (n: number) => 'GET /big HTTP/1.1\r\nHost: x\r\n\r\n'.repeat(n)

describe('HTTP: answers waiting on a connection are bounded in bytes', () => {
  let client: Client
  let carriedOut = 0
  const start = (requestTimeoutMs = 30_000) =>
    serve(
      (req, res) => {
        carriedOut++
        setImmediate(() => res.end(req.url === '/big' ? ANSWER : 'ok'))
      },
      {
        maxConnections: 20,
        headersTimeoutMs: 500,
        requestTimeoutMs,
        keepAliveTimeoutMs: 65_000,
        maxBufferedAnswerBytes: BOUND,
      },
    )
  beforeEach(() => (carriedOut = 0))
  afterEach(() => client.close())

  it('holds back the requests of a client that reads nothing, and answers them all once it reads', async () => {
    client = await start()
    const conn = await openCounting(client.port)
    conn.socket.pause()
    conn.socket.write(pipelined(30))
    await sleep(500)
    // The kernel takes a few MB, a few more are carried out ahead: not thirty answers of 2 MB.
    expect(carriedOut).to.be.within(1, 12)
    conn.socket.resume()
    const whole = 30 * ANSWER.length
    for (let waited = 0; conn.bytes() < whole && waited < 15_000; waited += 50) await sleep(50)
    expect(conn.bytes()).to.be.above(whole)
    expect(carriedOut).to.equal(30)
    conn.socket.destroy()
  })

  it('answers a few pipelined requests at once, as without the bound', async () => {
    client = await start()
    const conn = await openCounting(client.port)
    const opened = Date.now()
    conn.socket.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n'.repeat(4))
    for (let waited = 0; carriedOut < 4 && waited < 2000; waited += 5) await sleep(5)
    expect(carriedOut).to.equal(4)
    for (let waited = 0; conn.bytes() < 4 * 40 && waited < 2000; waited += 5) await sleep(5)
    expect(Date.now() - opened).to.be.below(1000)
    conn.socket.destroy()
  })

  it('closes a connection whose requests stay held back past the request timeout, though it reads slowly', async () => {
    client = await start(1500)
    const conn = await openCounting(client.port)
    conn.socket.pause()
    conn.socket.write(pipelined(30))
    // A trickle: a buffer's worth (tens of KB) ten times a second, far too slow for 60 MB, yet
    // never without progress.
    const trickle = setInterval(() => conn.socket.read(), 100)
    const opened = Date.now()
    try {
      // Seen from the server: the client, reading little, would see the close only much later.
      for (let waited = 0; client.connections() > 0 && waited < 8000; waited += 50) await sleep(50)
      expect(client.connections(), 'closed by the server').to.equal(0)
      expect(Date.now() - opened).to.be.within(1000, 6000)
      expect(carriedOut).to.be.below(30)
    } finally {
      clearInterval(trickle)
      conn.socket.destroy()
    }
  })
})
