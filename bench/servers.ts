/**
 * Starts each implementation as its own process, pinned to core 0 when taskset can pin, and
 * reads its CPU time and resident memory from /proc. The service runs exactly as `npm start`
 * runs it (node with tsx, which transpiles each file once at load, not per request).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { createConnection, createServer } from 'node:net'
import { createInterface } from 'node:readline'

export type Implementation = 'node:http' | 'service' | 'fastify'
export const IMPLEMENTATIONS: ReadonlyArray<Implementation> = ['node:http', 'service', 'fastify']

const SCRIPTS: Record<Implementation, string> = {
  'node:http': 'bench/peers/node-http.ts',
  service: 'apps/server/main.ts',
  fastify: 'bench/peers/fastify.ts',
}

export const SERVER_CORE = '0'
export const LOAD_CORE = '1'

/** Whether taskset exists and may pin here (a container can refuse the affinity call). */
export const canPin = (): boolean =>
  spawnSync('taskset', ['-c', '0', 'true'], { stdio: 'ignore' }).status === 0

/** `command args` prefixed with taskset when pinning. */
export const pinned = (pin: boolean, core: string, args: ReadonlyArray<string>) =>
  pin
    ? { command: 'taskset', args: ['-c', core, ...args] }
    : { command: args[0] as string, args: args.slice(1) }

const TICKS_PER_SECOND = Number(spawnSync('getconf', ['CLK_TCK']).stdout?.toString().trim()) || 100

export type Server = {
  readonly name: Implementation
  readonly port: number
  readonly pid: number
  /** utime + stime of the whole process (every thread), in microseconds. */
  readonly cpuMicros: () => number
  readonly rssBytes: () => number
  readonly output: ReadonlyArray<string>
  /** SIGTERM by default; SIGINT also ends the service cleanly (a --cpu-prof run uses it). */
  readonly stop: (signal?: NodeJS.Signals) => Promise<void>
}

const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address()
      probe.close(() => resolve(typeof address === 'object' && address !== null ? address.port : 0))
    })
  })

const accepts = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const socket = createConnection({ port, host: '127.0.0.1' })
    socket.once('connect', () => resolve(true)).once('error', () => resolve(false))
    socket.setTimeout(500, () => socket.destroy())
    socket.once('close', () => resolve(false))
    socket.once('connect', () => socket.end())
  })

/*
 * At LOG_LEVEL=warn the service does not print its info-level "listening" line, so readiness is
 * a port that accepts connections (the peers print the line all the same).
 */
const waitUntilListening = async (child: ChildProcess, port: number, output: string[]) => {
  const deadline = Date.now() + 30_000
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break
    if (await accepts(port)) return
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  child.kill('SIGKILL')
  throw new Error(`server did not start listening on ${port}:\n${output.join('\n')}`)
}

export const startServer = async (
  name: Implementation,
  env: Readonly<Record<string, string>>,
  pin: boolean,
  nodeFlags: ReadonlyArray<string> = [],
): Promise<Server> => {
  const port = await freePort()
  const { command, args } = pinned(pin, SERVER_CORE, [
    process.execPath,
    ...nodeFlags,
    '--import',
    'tsx',
    SCRIPTS[name],
  ])
  const child = spawn(command, args, {
    env: {
      PATH: process.env.PATH ?? '',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      // The service's rate limits stay on, so their cost is in the figures, but never refuse here.
      RATE_LIMIT_RPS: '1000000',
      RATE_LIMIT_BURST: '1000000',
      ...env,
      PORT: String(port),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const output: string[] = []
  createInterface({ input: child.stdout! }).on('line', (line) => output.push(line))
  createInterface({ input: child.stderr! }).on('line', (line) => output.push(line))
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  await waitUntilListening(child, port, output)
  // taskset execs node, so the pid is the server's own.
  const pid = child.pid as number
  return {
    name,
    port,
    pid,
    output,
    cpuMicros: () => {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      return ((Number(fields[11]) + Number(fields[12])) * 1e6) / TICKS_PER_SECOND
    },
    rssBytes: () => {
      const status = readFileSync(`/proc/${pid}/status`, 'utf8')
      return Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? NaN) * 1024
    },
    stop: async (signal: NodeJS.Signals = 'SIGTERM') => {
      if (child.exitCode === null) child.kill(signal)
      await exited
    },
  }
}
