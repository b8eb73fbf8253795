/** Starting the servers pinned to core 0, and reading their CPU time and memory from /proc. */
import { spawn, spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { createConnection, createServer } from 'node:net'
import { startFlags } from '../test/support/start-command.js'
import { API_KEY } from './peers/store.mjs'

export const SERVER_CORE = '0'
export const LOAD_CORE = '1'
export const canPin = spawnSync('taskset', ['-c', '0', 'true']).status === 0
/** `taskset -c core …` when it can pin (taskset execs, so the pid is the program's own). */
export const pinned = (core: string, argv: ReadonlyArray<string>): [string, string[]] =>
  canPin ? ['taskset', ['-c', core, ...argv]] : [argv[0] as string, argv.slice(1)]

export type Implementation = {
  readonly name: string
  readonly argv: string[]
  readonly env?: object
  /** Starts empty: seeded over HTTP before measuring. */
  readonly seed?: boolean
}

/** The service as `npm start` starts it (compiled, its node flags), with a variant's settings. */
export const service = (name: string, env: object = {}, dist = 'dist'): Implementation => ({
  name,
  argv: [...startFlags(), `${dist}/apps/server/main.js`],
  // One key drives all the load: the default rate limit runs (its cost is measured), never refusing.
  env: { API_KEYS: API_KEY, ...env },
  seed: true,
})
export const CEILING: Implementation = {
  name: 'ceiling: node:http',
  argv: ['bench/peers/ceiling.mjs'],
}
export const SERVICE = service('service (default: log on)')
/** The metrics issue: the speed targets must hold with metrics on too. */
export const SERVICE_WITH_METRICS = service('service, metrics on', { METRICS_PORT: '0' })
/**
 * The tracing issue: every request traced (always_on), or one in ten (`parentbased_traceidratio`
 * 0.1), exported to a local receiver that discards.
 */
export const tracedService = (otlpEndpoint: string, sampler: 'always_on' | '10%'): Implementation =>
  service(
    sampler === 'always_on'
      ? 'service, tracing on (always_on)'
      : 'service, tracing 10% (parentbased_traceidratio 0.1)',
    {
      OTEL_TRACES_EXPORTER: 'otlp',
      OTEL_EXPORTER_OTLP_ENDPOINT: otlpEndpoint,
      OTEL_SERVICE_NAME: 'animal-store-bench',
      ...(sampler === 'always_on'
        ? { OTEL_TRACES_SAMPLER: 'always_on' }
        : { OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.1' }),
    },
  )
export const OTLP_SINK: Implementation = { name: 'OTLP sink', argv: ['bench/peers/otlp-sink.mjs'] }
export const IMPLEMENTATIONS: Implementation[] = [
  CEILING,
  { name: 'Fastify peer', argv: ['bench/peers/fastify.mjs'] },
  { name: 'Fastify, same work (log on)', argv: ['bench/peers/fastify-full.mjs'] },
  { name: 'Koa floor (log on)', argv: ['bench/peers/koa-floor.mjs'] },
  SERVICE,
  service('service, LOG_LEVEL=warn', { LOG_LEVEL: 'warn' }),
  SERVICE_WITH_METRICS,
]

export type Server = {
  readonly port: number
  readonly cpuMicros: () => number
  readonly rssMB: () => number
  readonly stop: () => Promise<void>
}

const TICKS = Number(spawnSync('getconf', ['CLK_TCK']).stdout?.toString().trim()) || 100

/** utime + stime of a live process, in microseconds. */
export const cpuMicrosOf = (pid: number): number => {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return ((Number(fields[11]) + Number(fields[12])) * 1e6) / TICKS
}

const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const probe = createServer().once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number }
      probe.close(() => resolve(port))
    })
  })

const accepts = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const socket = createConnection({ port, host: '127.0.0.1' })
    socket.once('connect', () => (socket.end(), resolve(true)))
    socket.once('error', () => resolve(false))
  })

/** Output (the request log) goes to /dev/null; stderr is kept to explain a failed start. */
export const startServer = async (
  impl: Implementation,
  env: object = {},
  core = SERVER_CORE,
): Promise<Server> => {
  const port = await freePort()
  const [command, args] = pinned(core, [process.execPath, ...impl.argv])
  const child = spawn(command, args, {
    env: { PATH: process.env.PATH, HOST: '127.0.0.1', ...impl.env, ...env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  let stderr = ''
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const exited = new Promise((resolve) => child.once('exit', resolve))
  for (let tries = 0; !(await accepts(port)); tries++) {
    if (child.exitCode !== null || tries > 300) {
      child.kill('SIGKILL')
      throw new Error(`${impl.name} did not start: ${stderr}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  const pid = child.pid as number
  return {
    port,
    cpuMicros: () => cpuMicrosOf(pid),
    rssMB: () =>
      Number(/^VmRSS:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) / 1024,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM')
      await exited
    },
  }
}
