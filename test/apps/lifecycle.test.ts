import { execFileSync, spawn } from 'node:child_process'
import { createServer } from 'node:net'
import { expect } from 'chai'
import { START_COMMAND, startService, type Command } from '../support/service-process.js'

/** Every process below `pid`, read from `ps --ppid` level by level. */
const descendants = (pid: number): number[] => {
  const children = execFileSync('ps', ['--ppid', String(pid), '-o', 'pid='], { encoding: 'utf8' })
    .split('\n')
    .map((line) => Number(line.trim()))
    .filter((n) => n > 0)
  return children.flatMap((child) => [child, ...descendants(child)])
}

/** ps exits 1 when it lists nothing, which execFileSync turns into a throw. */
const safeDescendants = (pid: number): number[] => {
  try {
    return descendants(pid)
  } catch {
    return []
  }
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

const portIsFree = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const probe = createServer()
    probe.once('error', () => resolve(false))
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)))
  })

const NPM_START: Command = { file: 'npm', args: ['start', '--silent'] }

/** A loopback port nothing listens on: a connection to it is refused at once. */
const closedPort = async (): Promise<number> => {
  const closed = createServer()
  await new Promise<void>((listening) => closed.listen(0, '127.0.0.1', listening))
  const { port } = closed.address() as { port: number }
  await new Promise((done) => closed.close(done))
  return port
}

describe('the production start', function () {
  this.timeout(60_000)

  for (const [name, command] of [
    [`node ${START_COMMAND.args.join(' ')} (what npm start execs)`, START_COMMAND],
    ['npm start', NPM_START],
  ] as const) {
    it(`${name}: SIGTERM to the started process stops the server and leaves no process behind`, async () => {
      const service = await startService({}, 20_000, { command })
      const pid = service.process.pid as number
      const tree = safeDescendants(pid)
      try {
        expect((await service.request({ path: '/healthz' })).status).to.equal(200)
        expect(await service.stop()).to.equal(0)
        expect(service.output.join('\n')).to.match(/"signal":"SIGTERM".*"msg":"shutting down"/)
        // `--silent` leaves out npm's banner: every line on stdout is the service's JSON.
        for (const line of service.stdout)
          expect(() => JSON.parse(line) as unknown, line).not.to.throw()
        expect([pid, ...tree].filter(alive)).to.deep.equal([])
        expect(await portIsFree(service.port)).to.equal(true)
      } finally {
        // An orphan would keep this run's pipes open: end it by its pid whatever happened.
        for (const orphan of tree.filter(alive)) process.kill(orphan, 'SIGKILL')
      }
    })
  }

  it('a well-formed address that cannot be bound fails the start with status 1 and its cause', async () => {
    // 192.0.2.1 is TEST-NET-1 (never this machine's); .invalid never resolves (RFC 6761).
    for (const [host, cause] of [
      ['192.0.2.1', /EADDRNOTAVAIL/],
      ['no-such-host.invalid', /ENOTFOUND|EAI_AGAIN/],
    ] as const) {
      const start = spawn(START_COMMAND.file, START_COMMAND.args, {
        env: { PATH: process.env.PATH ?? '', PORT: '0', HOST: host },
        stdio: ['ignore', 'ignore', 'pipe'],
      })
      let stderr = ''
      start.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
      const code = await new Promise((done) => start.once('close', done))
      expect(code, host).to.equal(1)
      expect(stderr, host).to.match(new RegExp(`^cannot listen on ${host}:0: `))
      expect(stderr, host).to.match(cause)
    }
  })

  for (const signal of ['SIGTERM', 'SIGINT'] as const)
    it(`${signal} while start-up waits for the database exits 0 at once, and says why`, async () => {
      // A port nothing listens on: start-up retries for STARTUP_TIMEOUT_MS (a minute here).
      const port = await closedPort()
      const start = spawn(START_COMMAND.file, START_COMMAND.args, {
        env: {
          PATH: process.env.PATH ?? '',
          PORT: '0',
          HOST: '127.0.0.1',
          API_KEYS: 'startup-signal-key',
          MONGODB_URI: `mongodb://127.0.0.1:${port}/startup`,
          STORE_TIMEOUT_MS: '200',
          STARTUP_TIMEOUT_MS: '60000',
        },
        stdio: ['ignore', 'pipe', 'ignore'],
      })
      let stdout = ''
      const closedWith = new Promise((done) => start.once('close', (code, by) => done([code, by])))
      try {
        // Its first retry is logged: the process is well into start-up, not yet serving.
        await new Promise<void>((inStartUp) =>
          start.stdout.on('data', (chunk: Buffer) => {
            stdout += chunk.toString()
            if (stdout.includes('retrying')) inStartUp()
          }),
        )
        const signalled = Date.now()
        start.kill(signal)
        expect(await closedWith).to.deep.equal([0, null])
        expect(Date.now() - signalled).to.be.below(2000)
        expect(stdout).to.match(
          new RegExp(`"signal":"${signal}".*"msg":"stopped during start-up: nothing was served"`),
        )
      } finally {
        start.kill('SIGKILL')
      }
    })

  it('gives up on an unreachable database at STARTUP_TIMEOUT_MS, not a store timeout past it', async () => {
    const port = await closedPort()
    const started = Date.now()
    const start = spawn(START_COMMAND.file, START_COMMAND.args, {
      env: {
        PATH: process.env.PATH ?? '',
        PORT: '0',
        HOST: '127.0.0.1',
        API_KEYS: 'startup-deadline-key',
        MONGODB_URI: `mongodb://127.0.0.1:${port}/startup`,
        // The second ping has 1 s left of the start-up time, not a whole store timeout.
        STORE_TIMEOUT_MS: '3000',
        STARTUP_TIMEOUT_MS: '4000',
      },
      stdio: ['ignore', 'pipe', 'ignore'],
    })
    let stdout = ''
    start.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
    try {
      const code = await new Promise((done) => start.once('close', done))
      const took = Date.now() - started
      expect(code).to.equal(1)
      expect(stdout).to.match(/"msg":"cannot reach the database, giving up \(STARTUP_TIMEOUT_MS\)"/)
      expect(stdout).to.include('ECONNREFUSED')
      expect(stdout).to.include('retrying')
      // Node's own start-up and the driver's loading are included (under a second); the second
      // ping used to take a whole STORE_TIMEOUT_MS, ending 2.5 s past the deadline.
      expect(took).to.be.within(4000, 4000 + 1500)
    } finally {
      start.kill('SIGKILL')
    }
  })

  it('a second start on a port in use exits non-zero with one line on stderr', async () => {
    const first = await startService({})
    try {
      const second = spawn(START_COMMAND.file, START_COMMAND.args, {
        env: { PATH: process.env.PATH ?? '', PORT: String(first.port), HOST: '127.0.0.1' },
        stdio: ['ignore', 'ignore', 'pipe'],
      })
      let stderr = ''
      second.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
      const code = await new Promise((done) => second.once('close', done))
      expect(code).to.equal(1)
      expect(stderr).to.equal(
        `cannot listen on 127.0.0.1:${first.port}: the port is in use (PORT=0 picks a free one)\n`,
      )
      expect((await first.request({ path: '/healthz' })).status).to.equal(200)
    } finally {
      await first.stop()
    }
  })

  it('a METRICS_PORT in use fails the start with status 1 and its cause, the API never listening', async () => {
    const first = await startService({})
    try {
      const second = spawn(START_COMMAND.file, START_COMMAND.args, {
        env: {
          PATH: process.env.PATH ?? '',
          PORT: '0',
          HOST: '127.0.0.1',
          METRICS_PORT: String(first.port),
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      })
      let stdout = ''
      let stderr = ''
      second.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
      second.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
      // A start that served without its metrics would never exit: it is ended, and fails below.
      const timer = setTimeout(() => second.kill('SIGKILL'), 10_000)
      const code = await new Promise((done) => second.once('close', done))
      clearTimeout(timer)
      expect(code).to.equal(1)
      expect(stderr).to.match(/^cannot serve metrics on METRICS_PORT: .*EADDRINUSE/)
      expect(stdout).to.not.include('"msg":"listening"')
    } finally {
      await first.stop()
    }
  })
})
