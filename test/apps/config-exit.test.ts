import { spawn, type ChildProcess } from 'node:child_process'
import { expect } from 'chai'
import { START_COMMAND } from '../support/service-process.js'

type Exit = { readonly code: number | null; readonly stdout: string; readonly stderr: string }

/** Bad settings are refused before anything is opened: a start that listens is a failure. */
const LIMIT_MS = 10_000

describe('the production start with an invalid environment', function () {
  this.timeout(30_000)
  const started: ChildProcess[] = []
  afterEach(() => {
    for (const child of started.splice(0))
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
  })

  /** The compiled service, as `npm start` execs it, with only these variables (and loopback). */
  const run = (env: Record<string, string>): Promise<Exit> =>
    new Promise((resolve) => {
      const child = spawn(START_COMMAND.file, START_COMMAND.args, {
        env: { PATH: process.env.PATH ?? '', PORT: '0', HOST: '127.0.0.1', ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      })
      started.push(child)
      let stdout = ''
      let stderr = ''
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
      const timer = setTimeout(() => child.kill('SIGKILL'), LIMIT_MS)
      child.once('close', (code) => {
        clearTimeout(timer)
        resolve({ code, stdout, stderr })
      })
    })

  /**
   * The variable each environment must be refused for. Decoding is covered value by value in
   * config.test.ts; here, a sample of it and every check made after decoding (timeouts against
   * each other, the key source), each through the real exit.
   */
  const CASES: ReadonlyArray<readonly [string, Record<string, string>]> = [
    ['PORT', { PORT: '70000' }],
    ['BASE_PATH', { BASE_PATH: 'v1' }],
    ['BASE_PATH', { BASE_PATH: '/v1/' }],
    ['LOG_LEVEL', { LOG_LEVEL: 'loud' }],
    ['MAX_PETS', { MAX_PETS: '-1' }],
    ['RATE_LIMIT', { RATE_LIMIT: 'bogus' }],
    ['CORS_ORIGINS', { CORS_ORIGINS: 'not-an-origin' }],
    // Checked against the heap the process has: 150,000 worst-case pets need some 570 MB.
    ['MAX_PETS', { MAX_PETS: '150000', NODE_OPTIONS: '--max-old-space-size=128' }],
    ['TRUST_PROXY', { TRUST_PROXY: '0' }],
    ['TRUST_PROXY_HEADER', { TRUST_PROXY_HEADER: 'Forwarded' }],
    ['CORS_ORIGINS', { CORS_ORIGINS: 'https://app.example/' }],
    ['API_KEYS', { API_KEYS: 'has space' }],
    ['API_KEYS', { API_KEYS: 'short-key' }],
    ['KEEP_ALIVE_TIMEOUT_MS', { KEEP_ALIVE_TIMEOUT_MS: '999' }],
    ['REQUEST_TIMEOUT_MS', { HEADERS_TIMEOUT_MS: '3000', REQUEST_TIMEOUT_MS: '2999' }],
    ['GET_PET_DEPRECATED_AT', { GET_PET_DEPRECATED_AT: '2031-01-01T00:00:00Z' }],
    ['PRODUCTION_URL', { PRODUCTION_URL: 'https://api.example/v2' }],
    ['API_KEYS_FILE', { API_KEYS_FILE: 'keys.jsonl', MONGODB_URI: 'mongodb://127.0.0.1:9/x' }],
    ['BASE_PATH', { BASE_PATH: '/..' }],
    ['PRODUCTION_URL', { PRODUCTION_URL: 'https://[/v1' }],
    // Set, it must hold a key: a secret that came out blank must not start with a generated one.
    ['API_KEYS', { API_KEYS: ',' }],
    ['API_KEYS', { API_KEYS: ' ' }],
    ['API_KEYS_FILE', { API_KEYS_FILE: ' ' }],
    // Both would listen on 127.0.0.1:36698; the second could never bind.
    ['METRICS_PORT', { PORT: '36698', METRICS_PORT: '36698' }],
    // The Deprecation header has whole seconds.
    ['GET_PET_DEPRECATED_AT', { GET_PET_DEPRECATED_AT: '2026-01-01T00:00:00.5Z' }],
    // Tracing's variables are checked with tracing off, as they would be with it on.
    ['TRACE_DETAIL', { TRACE_DETAIL: 'full' }],
    ['OTEL_SDK_DISABLED', { OTEL_SDK_DISABLED: 'garbage' }],
    ['OTEL_TRACES_SAMPLER', { OTEL_TRACES_SAMPLER: 'bogus' }],
    ['OTEL_LOG_LEVEL', { OTEL_LOG_LEVEL: 'loud' }],
    ['OTEL_EXPORTER_OTLP_PROTOCOL', { OTEL_EXPORTER_OTLP_PROTOCOL: 'http' }],
    [
      'OTEL_EXPORTER_OTLP_ENDPOINT',
      { OTEL_TRACES_EXPORTER: 'none', OTEL_EXPORTER_OTLP_ENDPOINT: 'ftp://x' },
    ],
    // A connection string that can never work is refused before any connection is tried, not
    // waited on as an outage (port 9 would refuse a connection).
    ...[
      'notaurl',
      'mongodb://127.0.0.1:9/bad.name',
      'mongodb://127.0.0.1:9/x?maxPoolSize=abc',
      'mongodb://127.0.0.1:9/x?maxPoolSize=0',
      'mongodb://127.0.0.1:9/x?foo=bar',
    ].map(
      (uri) =>
        [
          'MONGODB_URI',
          { MONGODB_URI: uri, API_KEYS: 'bootstrap-key-0123456789', STARTUP_TIMEOUT_MS: '60000' },
        ] as const,
    ),
  ]

  it('exits with status 2 for each invalid value, naming the variable on stderr, before listening', async function () {
    this.timeout(90_000)
    // Eight at a time: thirty starts at once on a busy 2-core host could outlast LIMIT_MS.
    const exits: Exit[] = []
    for (let i = 0; i < CASES.length; i += 8)
      exits.push(...(await Promise.all(CASES.slice(i, i + 8).map(([, env]) => run(env)))))
    CASES.forEach(([name, env], i) => {
      const { code, stdout, stderr } = exits[i] as Exit
      const what = `${JSON.stringify(env)}: ${stderr}${stdout}`
      expect(code, what).to.equal(2)
      expect(stderr, what).to.match(new RegExp(`^configuration: ${name} `, 'm'))
      expect(stdout, what).to.not.include('listening')
    })
  })

  it('quotes the value it refused', async () => {
    const { code, stderr } = await run({ PORT: '70000' })
    expect(code).to.equal(2)
    expect(stderr).to.equal(
      'configuration: PORT must be an integer from 0 to 65535 (got "70000")\n',
    )
  })

  it('reports every invalid variable at once, one line each', async () => {
    const bad = {
      PORT: '70000',
      BASE_PATH: 'v1',
      LOG_LEVEL: 'loud',
      MAX_PETS: '-1',
      RATE_LIMIT: 'bogus',
      CORS_ORIGINS: 'not-an-origin',
    }
    const { code, stdout, stderr } = await run(bad)
    expect(code).to.equal(2)
    expect(stdout).to.equal('')
    const lines = stderr.trimEnd().split('\n')
    expect(lines.map((line) => /^configuration: (\w+) /.exec(line)?.[1]).sort()).to.deep.equal(
      Object.keys(bad).sort(),
    )
    for (const [name, value] of Object.entries(bad))
      expect(lines.find((line) => line.startsWith(`configuration: ${name} `))).to.include(
        `(got "${value}")`,
      )
  })

  it("reports tracing's invalid values with every other variable's", async () => {
    for (const bad of [
      { PORT: 'abc', OTEL_TRACES_EXPORTER: 'console' },
      { OTEL_TRACES_EXPORTER: 'console', OTEL_TRACES_SAMPLER: 'bogus', LOG_LEVEL: 'loud' },
    ]) {
      const { code, stderr } = await run(bad)
      expect(code, stderr).to.equal(2)
      const names = stderr
        .trimEnd()
        .split('\n')
        .map((line) => /^configuration: (\w+) /.exec(line)?.[1])
      expect(names.sort(), stderr).to.deep.equal(Object.keys(bad).sort())
    }
  })

  it('starts with the same environment once the values are valid (the refusals are the values)', async () => {
    const child = spawn(START_COMMAND.file, START_COMMAND.args, {
      env: {
        PATH: process.env.PATH ?? '',
        PORT: '0',
        HOST: '127.0.0.1',
        BASE_PATH: '/v1',
        LOG_LEVEL: 'info',
        MAX_PETS: '1',
        RATE_LIMIT: 'off',
        CORS_ORIGINS: 'https://app.example',
        // No drain: the SIGTERM below ends it at once.
        SHUTDOWN_DRAIN_MS: '0',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    started.push(child)
    const listening = await new Promise<boolean>((resolve) => {
      let stdout = ''
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString()
        if (stdout.includes('"msg":"listening"')) resolve(true)
      })
      child.once('close', () => resolve(false))
      setTimeout(() => resolve(false), LIMIT_MS)
    })
    expect(listening).to.equal(true)
    child.kill('SIGTERM')
    expect(await new Promise((done) => child.once('close', done))).to.equal(0)
  })
})
