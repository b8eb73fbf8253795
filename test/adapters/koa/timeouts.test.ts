import { connect, type Socket } from 'node:net'
import { expect } from 'chai'
import { startTestApi, TEST_KEY, type TestApi } from '../../support/app.js'
import { openRaw, type RawConnection } from '../../support/raw.js'

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Waits until the server closes the connection; how long that took from `since`. */
const closedAfter = async (conn: RawConnection, since: number, capMs: number) => {
  await Promise.race([conn.closed, sleep(capMs)])
  return Date.now() - since
}

describe('HTTP: HEADERS_TIMEOUT_MS (slowloris)', () => {
  let api: TestApi
  const held: RawConnection[] = []
  // The whole request may take 30 s (the default): only the headers' timeout can fire here.
  before(async () => (api = await startTestApi({ env: { HEADERS_TIMEOUT_MS: '500' } })))
  afterEach(() => held.splice(0).forEach((conn) => conn.socket.destroy()))
  after(() => api.close())

  const expectTimedOut = (conn: RawConnection, tookMs: number) => {
    const text = conn.received()
    expect(text).to.match(/^HTTP\/1\.1 408 /)
    expect(text.match(/HTTP\/1\.1 /g)).to.have.length(1)
    expect(text).to.match(/\r\nConnection: close\r\n/i)
    expect(text).to.match(/\r\nDate: /)
    expect(text).to.match(/\r\nX-Request-Id: [0-9a-f-]{36}\r\n/)
    expect(JSON.parse(text.split('\r\n\r\n')[1] ?? '')).to.include({
      code: 'request_timeout',
      status: 408,
    })
    // Enforced by a check every 500 ms (the smaller of 1 s and the timeout), so by 1 s; not early.
    expect(tookMs).to.be.within(450, 2000)
  }

  it('answers an incomplete header block 408 request_timeout and closes the connection', async () => {
    const conn = await openRaw(api.port)
    held.push(conn)
    const started = Date.now()
    conn.socket.write(`GET /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TEST_KEY}\r\n`)
    const tookMs = await closedAfter(conn, started, 5000)
    expectTimedOut(conn, tookMs)
  })

  it('counts from the first byte: headers dripped in, a line every 100 ms, are cut off all the same', async () => {
    const conn = await openRaw(api.port)
    held.push(conn)
    const started = Date.now()
    conn.socket.write('GET /v1/pets HTTP/1.1\r\nHost: x\r\n')
    let n = 0
    const drip = setInterval(() => conn.socket.write(`X-Slow-${n++}: a\r\n`), 100)
    try {
      const tookMs = await closedAfter(conn, started, 5000)
      expectTimedOut(conn, tookMs)
      expect(n).to.be.at.least(4)
    } finally {
      clearInterval(drip)
    }
  })

  it('serves headers that arrive in parts within the time', async () => {
    const conn = await openRaw(api.port)
    held.push(conn)
    conn.socket.write('GET /v1/pets HTTP/1.1\r\nHost: x\r\n')
    await sleep(200)
    conn.socket.write(`Authorization: Bearer ${TEST_KEY}\r\nConnection: close\r\n\r\n`)
    await conn.closed
    expect(conn.received()).to.match(/^HTTP\/1\.1 200 /)
  })
})

describe('HTTP: KEEP_ALIVE_TIMEOUT_MS', () => {
  let api: TestApi
  const held: RawConnection[] = []
  before(async () => (api = await startTestApi({ env: { KEEP_ALIVE_TIMEOUT_MS: '1000' } })))
  afterEach(() => held.splice(0).forEach((conn) => conn.socket.destroy()))
  after(() => api.close())

  it('advertises the timeout and closes an idle keep-alive connection after it', async () => {
    const conn = await openRaw(api.port)
    held.push(conn)
    let closed = false
    void conn.closed.then(() => (closed = true))
    conn.socket.write(
      `GET /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TEST_KEY}\r\n\r\n`,
    )
    const answer = await conn.waitFor(/\r\n\r\n\[\]$/)
    const idleSince = Date.now()
    expect(answer).to.match(/^HTTP\/1\.1 200 /)
    expect(answer).to.match(/\r\nConnection: keep-alive\r\n/i)
    expect(answer).to.match(/\r\nKeep-Alive: timeout=1\r\n/i)

    await sleep(900)
    expect(closed, 'closed before the advertised timeout').to.equal(false)
    // Node keeps it about 1 s past the advertised value, so that a client honouring the
    // advertised timeout never sends on a connection the server is closing.
    const tookMs = await closedAfter(conn, idleSince, 3000)
    expect(closed).to.equal(true)
    expect(tookMs).to.be.within(1000, 2500)
    expect(conn.received()).to.equal(answer)
  })
})

describe('HTTP: a client that does not take its answers', () => {
  it('loses its connection once nothing more has left for REQUEST_TIMEOUT_MS', async function () {
    this.timeout(20_000)
    const api = await startTestApi({
      env: {
        MAX_CONNECTIONS: '2',
        ANONYMOUS_CONNECTIONS_PERCENT: '100',
        HEADERS_TIMEOUT_MS: '500',
        REQUEST_TIMEOUT_MS: '500',
      },
    })
    const stalled: Socket[] = []
    try {
      // Eight copies of the 1.7 MB reference bundle each, more than the kernel buffers hold,
      // and never a byte read.
      const bundle = 'GET /v1/docs/swagger-ui-bundle.js HTTP/1.1\r\nHost: x\r\n\r\n'.repeat(8)
      for (let i = 0; i < 2; i++) {
        const socket = connect(api.port, '127.0.0.1')
        socket.on('error', () => undefined)
        socket.pause()
        socket.write(bundle)
        stalled.push(socket)
      }
      await sleep(200)
      // Both places are taken by answers in progress (a newcomer would make one give way)...
      expect(api.connections()).to.equal(2)
      // ...until the connections that stopped taking them are closed.
      for (let waited = 0; api.connections() > 0 && waited < 8000; waited += 250) await sleep(250)
      expect(api.connections()).to.equal(0)
      expect((await api.get('/pets')).status).to.equal(200)
    } finally {
      stalled.forEach((socket) => socket.destroy())
      await api.close()
    }
  })
})
