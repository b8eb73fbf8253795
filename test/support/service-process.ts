import { spawn, type ChildProcess } from 'node:child_process'
import { createInterface } from 'node:readline'
import { TEST_KEY } from './app.js'
import { send, type Reply, type Request } from './http.js'
import { startFlags } from './start-command.js'

export type ServiceProcess = {
  readonly port: number
  readonly process: ChildProcess
  /** Everything the process wrote on stdout and stderr, for assertions on logs. */
  readonly output: string[]
  /** The same lines, by stream. */
  readonly stdout: string[]
  readonly stderr: string[]
  readonly request: (req: Request) => Promise<Reply>
  readonly stop: () => Promise<number | null>
}

/**
 * The production start: what `npm start` execs, the compiled service with its node flags, run
 * by node itself (no npm, no tsx in the process tree). `npm test` builds dist/ first; after
 * editing apps/ or adapters/ outside `npm test`, run `npm run build` before a test that starts
 * the service.
 */
export const START_COMMAND = {
  file: process.execPath,
  args: [...startFlags(), 'dist/apps/server/main.js'],
} as const

export type Command = { readonly file: string; readonly args: ReadonlyArray<string> }

/** Starts the service as its own process and waits until it listens. */
export const startService = (
  env: Record<string, string>,
  timeoutMs = 20_000,
  options: { readonly openFilesLimit?: number; readonly command?: Command } = {},
): Promise<ServiceProcess> =>
  new Promise((resolve, reject) => {
    const { file: program, args: programArgs } = options.command ?? START_COMMAND
    const command = [program, ...programArgs]
    // Through sh only to lower the descriptor limit; `exec` keeps the pid the service's own.
    const [file, ...args] =
      options.openFilesLimit === undefined
        ? command
        : ['sh', '-c', `ulimit -n ${options.openFilesLimit} && exec "$0" "$@"`, ...command]
    const child = spawn(file as string, args, {
      env: {
        PATH: process.env.PATH ?? '',
        PORT: '0',
        HOST: '127.0.0.1',
        API_KEYS: TEST_KEY,
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    const output: string[] = []
    const stdout: string[] = []
    const stderr: string[] = []
    const timer = setTimeout(
      () => reject(new Error(`service did not start:\n${output.join('\n')}`)),
      timeoutMs,
    )
    const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)))
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`service exited with ${code}:\n${output.join('\n')}`))
    })
    createInterface({ input: child.stderr }).on('line', (line) => {
      output.push(line)
      stderr.push(line)
    })
    createInterface({ input: child.stdout }).on('line', (line) => {
      output.push(line)
      stdout.push(line)
      const port = /"msg":"listening"/.test(line)
        ? (JSON.parse(line) as { port: number }).port
        : undefined
      if (port === undefined) return
      clearTimeout(timer)
      resolve({
        port,
        process: child,
        output,
        stdout,
        stderr,
        request: (req) => send(port, req),
        stop: () => {
          child.kill('SIGTERM')
          return exited
        },
      })
    })
  })
