import { spawn, type ChildProcess } from 'node:child_process'
import {
  accessSync,
  chmodSync,
  constants,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { createServer, connect, type AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export type ProxyName = 'haproxy' | 'nginx'

/** Where the proxy listens, the instances behind it, and its per-client connection cap. */
export type Layout = {
  readonly port: number
  readonly instancePorts: ReadonlyArray<number>
  readonly perClient: number
}

export type RunningProxy = {
  readonly port: number
  /** HAProxy's stats page, on loopback (undefined for nginx, which has none). */
  readonly statsPort: number | undefined
  readonly output: string[]
  readonly stop: () => Promise<void>
}

const BINARIES: Record<ProxyName, string> = {
  haproxy: '/usr/sbin/haproxy',
  nginx: '/usr/sbin/nginx',
}

/** The proxy's binary; a missing one skips the suite locally and fails it in CI (.ci/run installs both). */
export const requireProxy = (context: Mocha.Context, name: ProxyName): void => {
  try {
    accessSync(BINARIES[name], constants.X_OK)
  } catch {
    const why = `${BINARIES[name]} is missing: apt-get install ${name} (.ci/run does)`
    if (process.env.CI === 'true') throw new Error(why)
    console.warn(`    skipped: ${why}`)
    context.skip()
  }
}

/** A loopback port that was free a moment ago. */
export const freePort = (): Promise<number> =>
  new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo
      server.close(() => resolve(port))
    })
  })

export const DEPLOY_FILES: Record<ProxyName, string> = {
  haproxy: 'deploy/haproxy.cfg',
  nginx: 'deploy/nginx.conf',
}

/** The example instances' lines (`server app1 10.0.0.11:8080 …`, `server 10.0.0.11:8080 …;`). */
const SERVER_LINES = /(?:^( *server )(app\d+ )?10\.0\.0\.1\d:8080(.*)\n)+/m

/**
 * deploy/<file> as the test runs it: listening on `port` of loopback, one server line per
 * instance (with the example's options), and the per-client cap `perClient`.
 */
export const render = (name: ProxyName, layout: Layout, statsPort = 0): string => {
  const file = readFileSync(DEPLOY_FILES[name], 'utf8')
  const [, indent = '', app = '', options = ''] = SERVER_LINES.exec(file) ?? []
  const servers = layout.instancePorts
    .map((port, i) => `${indent}${app === '' ? '' : `app${i + 1} `}127.0.0.1:${port}${options}\n`)
    .join('')
  return file
    .replace(SERVER_LINES, servers)
    .replace(/^( *)bind :80$/m, `$1bind 127.0.0.1:${layout.port}`)
    .replace(/^( *)bind 127\.0\.0\.1:8404$/m, `$1bind 127.0.0.1:${statsPort}`)
    .replace(/^( *)listen 80;$/m, `$1listen 127.0.0.1:${layout.port};`)
    .replace(/(sc0_conn_cur gt |limit_conn animal_store_clients )500\b/, `$1${layout.perClient}`)
}

/** nginx's main file around the deploy file, which goes in its http block. */
const nginxMain = (dir: string): string => `daemon off;
pid ${dir}/nginx.pid;
error_log stderr warn;
worker_processes 1;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  include ${dir}/animal-store.conf;
}
`

/** The command that runs the proxy in the foreground on files written into `dir`. */
const commandOf = (name: ProxyName, dir: string, config: string): string[] => {
  if (name === 'haproxy') {
    writeFileSync(join(dir, 'haproxy.cfg'), config)
    return [BINARIES.haproxy, '-db', '-f', join(dir, 'haproxy.cfg')]
  }
  writeFileSync(join(dir, 'animal-store.conf'), config)
  writeFileSync(join(dir, 'nginx.conf'), nginxMain(dir))
  return [BINARIES.nginx, '-e', 'stderr', '-p', dir, '-c', join(dir, 'nginx.conf')]
}

const accepts = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1')
    socket.once('connect', () => (socket.destroy(), resolve(true)))
    socket.once('error', () => resolve(false))
  })

/** Starts the proxy on the rendered deploy file and waits until it accepts connections. */
export const startProxy = async (name: ProxyName, layout: Layout): Promise<RunningProxy> => {
  const dir = mkdtempSync(join(tmpdir(), `animal-store-${name}-`))
  // nginx's workers drop root's rights, and still read and write here.
  chmodSync(dir, 0o755)
  const statsPort = name === 'haproxy' ? await freePort() : undefined
  const [file, ...args] = commandOf(name, dir, render(name, layout, statsPort))
  const child = spawn(file as string, args, { stdio: ['ignore', 'pipe', 'pipe'] })
  const output: string[] = []
  for (const stream of [child.stdout, child.stderr])
    stream.on('data', (chunk: Buffer) => output.push(chunk.toString('utf8')))
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM')
    await exited
    rmSync(dir, { recursive: true, force: true })
  }
  await untilAccepting(child, layout.port, output)
  return { port: layout.port, statsPort, output, stop }
}

/** Each instance's status on HAProxy's stats page (`/stats;csv`): `{ app1: 'UP', … }`. */
export const haproxyStatuses = async (statsPort: number): Promise<Record<string, string>> => {
  const csv = await (await fetch(`http://127.0.0.1:${statsPort}/stats;csv`)).text()
  const [header = '', ...rows] = csv.trim().split('\n')
  const columns = header.replace(/^# /, '').split(',')
  const [name, status] = [columns.indexOf('svname'), columns.indexOf('status')]
  const servers = rows
    .map((row) => row.split(','))
    .filter((cells) => /^app\d+$/.test(cells[name] ?? ''))
  return Object.fromEntries(servers.map((cells) => [cells[name], cells[status]]))
}

const untilAccepting = async (child: ChildProcess, port: number, output: string[]) => {
  for (let tries = 0; tries < 100; tries++) {
    if (child.exitCode !== null) throw new Error(`proxy exited: ${output.join('')}`)
    if (await accepts(port)) return
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  child.kill('SIGKILL')
  throw new Error(`proxy did not listen on ${port}: ${output.join('')}`)
}
