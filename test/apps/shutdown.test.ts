import { connect } from 'node:net'
import { expect } from 'chai'
import { TEST_KEY } from '../support/app.js'
import { openRaw, sendRaw, type RawConnection } from '../support/raw.js'
import { startService, type ServiceProcess } from '../support/service-process.js'

const BODY = '{"name":"Rex","categoryId":9223372036854775807,"status":"available"}'
const HALF = Math.floor(BODY.length / 2)
const createHead = [
  'POST /v1/pets HTTP/1.1',
  'Host: localhost',
  `Authorization: Bearer ${TEST_KEY}`,
  'Content-Type: application/json',
  `Content-Length: ${BODY.length}`,
  '',
  '',
].join('\r\n')

const exitOf = (service: ServiceProcess) =>
  new Promise<{ code: number | null; at: number }>((done) =>
    service.process.once('exit', (code) => done({ code, at: Date.now() })),
  )

const portIsFree = (port: number) =>
  new Promise<boolean>((done) => {
    const socket = connect(port, '127.0.0.1')
    socket.once('connect', () => {
      socket.destroy()
      done(false)
    })
    socket.once('error', () => done(true))
  })

const alive = (pid: number | undefined) => {
  try {
    return pid !== undefined && process.kill(pid, 0)
  } catch {
    return false
  }
}

describe('service process: shutdown on SIGTERM', function () {
  this.timeout(60_000)
  const started: ServiceProcess[] = []
  afterEach(() => {
    for (const s of started.splice(0)) if (alive(s.process.pid)) s.process.kill('SIGKILL')
  })

  it('answers 100 creates in flight (201, Connection: close), closes 100 idle connections, exits 0 within 5 s', async () => {
    const service = await startService({ SHUTDOWN_DRAIN_MS: '1500', LOG_LEVEL: 'warn' })
    started.push(service)
    const idle: RawConnection[] = []
    for (let i = 0; i < 100; i++) {
      const conn = await openRaw(service.port)
      conn.socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n')
      idle.push(conn)
    }
    await Promise.all(idle.map((c) => c.waitFor(/"ok"\}$/)))
    const creates = await Promise.all(Array.from({ length: 100 }, () => openRaw(service.port)))
    for (const c of creates) c.socket.write(createHead + BODY.slice(0, HALF))
    await new Promise((r) => setTimeout(r, 1000)) // the server has every request's headers

    const exited = exitOf(service)
    const signalled = Date.now()
    service.process.kill('SIGTERM')
    await new Promise((r) => setTimeout(r, 100))
    const ready = await sendRaw(service.port, 'GET /readyz HTTP/1.1\r\nHost: x\r\n\r\n')
    expect(ready.status).to.equal(503)
    expect(JSON.parse(ready.body)).to.deep.equal({
      code: 'unavailable',
      message: 'this instance is shutting down; send requests to another',
      status: 503,
    })
    expect(ready.head).to.match(/\r\nRetry-After: 2\r\n/)
    await Promise.all(idle.map((c) => c.closed)) // closed at once, not after the drain
    const idleClosedIn = Date.now() - signalled

    // Past the drain: the listener is closed, and the bodies still arrive.
    await new Promise((r) => setTimeout(r, Math.max(0, signalled + 1700 - Date.now())))
    expect(await portIsFree(service.port)).to.equal(true)
    for (const c of creates) c.socket.write(BODY.slice(HALF))
    await Promise.all(creates.map((c) => c.closed))
    const statuses = creates.map((c) => /^HTTP\/1\.1 (\d{3})/.exec(c.received())?.[1])
    expect(statuses).to.deep.equal(creates.map(() => '201'))
    for (const c of creates) expect(c.received()).to.match(/\r\nConnection: close\r\n/i)

    const { code, at } = await exited
    expect(code).to.equal(0)
    expect(at - signalled).to.be.below(5000)
    expect(idleClosedIn).to.be.below(1500) // before the drain ends
    // Stopping is no store failure: at LOG_LEVEL=warn the 503 to /readyz writes nothing.
    expect(service.output.filter((line) => line.includes('"level":40'))).to.deep.equal([])
    expect(await portIsFree(service.port)).to.equal(true)
    expect(alive(service.process.pid)).to.equal(false)
  })

  it('keeps draining on a second SIGTERM or a SIGINT: requests in flight are still answered', async () => {
    const service = await startService({ SHUTDOWN_DRAIN_MS: '300' })
    started.push(service)
    const creates = await Promise.all(Array.from({ length: 20 }, () => openRaw(service.port)))
    for (const c of creates) c.socket.write(createHead + BODY.slice(0, HALF))
    await new Promise((r) => setTimeout(r, 300))
    const exited = exitOf(service)
    service.process.kill('SIGTERM')
    await new Promise((r) => setTimeout(r, 100))
    service.process.kill('SIGTERM')
    service.process.kill('SIGINT')
    await new Promise((r) => setTimeout(r, 300))
    for (const c of creates) c.socket.write(BODY.slice(HALF))
    await Promise.all(creates.map((c) => c.closed))
    const statuses = creates.map((c) => /^HTTP\/1\.1 (\d{3})/.exec(c.received())?.[1])
    expect(statuses).to.deep.equal(creates.map(() => '201'))
    expect((await exited).code).to.equal(0)
    const repeats = service.output.filter((line) => line.includes('already shutting down'))
    expect(repeats, service.output.join('\n')).to.have.length(2)
  })

  it('exits 0 though a client refused 408 for its slow body keeps its side of the connection open', async () => {
    const service = await startService({
      HEADERS_TIMEOUT_MS: '500',
      REQUEST_TIMEOUT_MS: '500',
      SHUTDOWN_DRAIN_MS: '0',
      SHUTDOWN_TIMEOUT_MS: '3000',
    })
    started.push(service)
    const slow = await openRaw(service.port, { allowHalfOpen: true })
    slow.socket.write(createHead + BODY.slice(0, HALF)) // and never the rest
    await slow.waitFor(/^HTTP\/1\.1 408 /)
    const exited = exitOf(service)
    service.process.kill('SIGTERM')
    const { code } = await exited
    expect(code, service.output.join('\n')).to.equal(0)
    slow.socket.destroy()
  })

  it('forces the exit with status 1, and logs it, when a request outlasts the budget', async () => {
    const service = await startService({ SHUTDOWN_DRAIN_MS: '0', SHUTDOWN_TIMEOUT_MS: '1000' })
    started.push(service)
    const stuck = await openRaw(service.port)
    stuck.socket.write(createHead + BODY.slice(0, HALF)) // and never the rest
    await new Promise((r) => setTimeout(r, 200))
    const exited = exitOf(service)
    service.process.kill('SIGTERM')
    const { code } = await exited
    expect(code).to.equal(1)
    const forced = service.output.find((line) => line.includes('forced exit'))
    expect(forced, service.output.join('\n')).to.not.equal(undefined)
    expect(JSON.parse(forced as string)).to.include({ level: 50 })
    stuck.socket.destroy()
  })
})
