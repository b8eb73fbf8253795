import { execFile, spawn } from 'node:child_process'
import { readdirSync, rmSync } from 'node:fs'
import { createInterface } from 'node:readline'
import { promisify } from 'node:util'

/** Where the documentation's commands are pointed: the service and test server the test started. */
export type Target = {
  readonly port: number
  readonly metricsPort: number
  readonly key: string
  readonly mongodbUri: string | undefined
}

/** The addresses the documentation shows, and what the test puts in their place. */
export const localise = (code: string, target: Target): string => {
  let out = code
    .replaceAll('localhost:8080', `127.0.0.1:${target.port}`)
    .replaceAll('localhost:9464', `127.0.0.1:${target.metricsPort}`)
    .replaceAll('METRICS_PORT=9464', 'METRICS_PORT=0')
  if (target.mongodbUri !== undefined)
    out = out.replaceAll('mongodb://localhost:27017/', target.mongodbUri)
  return out
}

export const startsService = (code: string): boolean => /\bnpm start\b/.test(code)

const envFor = (target: Target) => ({
  ...process.env,
  PORT: '0',
  HOST: '127.0.0.1',
  KEY: target.key,
  MONGODB_URI: '',
  API_KEYS: '',
})

/**
 * Blocks run from the repository's root, and one may use what an earlier one of its page wrote
 * (a key file): call the result once they have all run, to remove what they left there.
 */
export const cleanRootLater = (): (() => void) => {
  const before = new Set(readdirSync('.'))
  return () => {
    for (const name of readdirSync('.'))
      if (!before.has(name)) rmSync(name, { recursive: true, force: true })
  }
}

/** A block of commands: bash, strict mode; it must exit 0 within the time given. */
export const runCommands = (code: string, target: Target, timeoutMs: number) =>
  promisify(execFile)('bash', ['-euo', 'pipefail', '-c', localise(code, target)], {
    env: envFor(target),
    timeout: timeoutMs,
  })

type Started = { readonly output: string; readonly port: number; readonly status: number | null }

/**
 * A block that starts the service: it must print the `listening` line; `probe` asks the
 * port in it; then the service (the pid in that line) gets SIGTERM and the block must end.
 */
export const runServiceBlock = (
  code: string,
  target: Target,
  probe: (port: number) => Promise<void>,
  timeoutMs: number,
): Promise<Started> =>
  new Promise((resolve, reject) => {
    const child = spawn('bash', ['-euo', 'pipefail', '-c', localise(code, target)], {
      env: envFor(target),
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    })
    const output: string[] = []
    let port = 0
    const timer = setTimeout(() => {
      process.kill(-(child.pid as number), 'SIGKILL')
      reject(new Error(`the block did not start and stop in time:\n${output.join('\n')}`))
    }, timeoutMs)
    child.once('exit', (status) => {
      clearTimeout(timer)
      resolve({ output: output.join('\n'), port, status })
    })
    createInterface({ input: child.stderr }).on('line', (line) => output.push(line))
    createInterface({ input: child.stdout }).on('line', (line) => {
      output.push(line)
      if (!line.includes('"msg":"listening"')) return
      const listening = JSON.parse(line) as { port: number; pid: number }
      port = listening.port
      probe(port).then(
        () => process.kill(listening.pid, 'SIGTERM'),
        (error: unknown) => {
          process.kill(listening.pid, 'SIGKILL')
          reject(error as Error)
        },
      )
    })
  })
