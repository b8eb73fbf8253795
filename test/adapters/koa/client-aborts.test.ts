import { Writable } from 'node:stream'
import { expect } from 'chai'
import { pino } from 'pino'
import { startTestApi } from '../../support/app.js'
import { TEST_KEY } from '../../support/app.js'
import { openRaw } from '../../support/raw.js'

const capture = () => {
  const lines: Array<Record<string, unknown>> = []
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean))
        lines.push(JSON.parse(line) as Record<string, unknown>)
      done()
    },
  })
  return { lines, logger: pino({ level: 'info' }, stream) }
}

const partialCreate = (auth: boolean) =>
  [
    'POST /v1/pets HTTP/1.1',
    'Host: localhost',
    'Content-Type: application/json',
    'Content-Length: 100',
    ...(auth ? [`Authorization: Bearer ${TEST_KEY}`] : []),
    '',
    '{"name":',
  ].join('\r\n')

const until = async (check: () => boolean, ms = 3000) => {
  const end = Date.now() + ms
  while (!check() && Date.now() < end) await new Promise((r) => setTimeout(r, 20))
}

describe('HTTP: client aborts and timeouts are the client’s', () => {
  it('logs a client that disconnects mid-body at info as client_aborted, never 500 or error', async () => {
    const { lines, logger } = capture()
    const api = await startTestApi({ logger })
    try {
      const conn = await openRaw(api.port)
      conn.socket.write(partialCreate(true))
      await new Promise((r) => setTimeout(r, 100))
      conn.socket.destroy()
      await until(() => lines.some((l) => l.outcome === 'client_aborted'))
    } finally {
      await api.close()
    }
    expect(lines).to.have.length(1)
    expect(lines[0]).to.include({ level: 30, outcome: 'client_aborted', status: 499 })
    expect(lines.filter((l) => (l.level as number) >= 50 || l.status === 500)).to.deep.equal([])
  })

  it('logs a body that times out as client_aborted and answers it once, 408', async () => {
    const { lines, logger } = capture()
    const api = await startTestApi({
      logger,
      env: { REQUEST_TIMEOUT_MS: '500', HEADERS_TIMEOUT_MS: '500' },
    })
    try {
      const conn = await openRaw(api.port)
      conn.socket.write(
        partialCreate(true).replace('Host: localhost', 'Host: x\r\nX-Request-Id: slow-1'),
      )
      await conn.closed
      expect(conn.received()).to.match(/^HTTP\/1\.1 408 /)
      expect(conn.received().match(/HTTP\/1\.1 /g)).to.have.length(1)
      // The request's own id, the one its log line carries.
      expect(conn.received()).to.include('\r\nX-Request-Id: slow-1\r\n')
      await until(() => lines.some((l) => l.outcome === 'client_aborted'))
    } finally {
      await api.close()
    }
    expect(lines.map((l) => [l.level, l.outcome, l.requestId])).to.deep.equal([
      [30, 'client_aborted', 'slow-1'],
    ])
  })

  it('gives a slow body after an early 401 no second answer', async () => {
    const api = await startTestApi({
      env: { REQUEST_TIMEOUT_MS: '500', HEADERS_TIMEOUT_MS: '500' },
    })
    try {
      const conn = await openRaw(api.port)
      conn.socket.write(partialCreate(false))
      const drip = setInterval(() => conn.socket.write(' '), 100)
      await Promise.race([conn.closed, new Promise((r) => setTimeout(r, 1500))])
      clearInterval(drip)
      expect(conn.received()).to.match(/^HTTP\/1\.1 401 /)
      expect(conn.received().match(/HTTP\/1\.1 /g)).to.have.length(1)
      conn.socket.destroy()
    } finally {
      await api.close()
    }
  })
})
