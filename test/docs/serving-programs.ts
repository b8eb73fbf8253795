import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { createServer, type AddressInfo } from 'node:net'

/*
 * A `ts` program that listens on 8080 serves until it is stopped, as a reader would run it: the
 * test gives it a free port in place of 8080, asks each `http://localhost:8080/...` URL it names,
 * then stops it.
 */

export const listensOn8080 = (code: string): boolean => code.includes('.listen(8080)')

/** A port free now on loopback. */
export const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo
      server.close(() => resolve(port))
    })
  })

/** The program on `port` instead of 8080, its URLs included. */
export const onPort = (code: string, port: number): string =>
  code
    .replaceAll('.listen(8080)', `.listen(${port})`)
    .replaceAll('localhost:8080', `localhost:${port}`)

/** The URLs the program names on its own port. */
export const urlsOf = (code: string, port: number): string[] =>
  [...code.matchAll(new RegExp(`http://localhost:${port}(/[^\\s'"\`)]*)`, 'g'))].map(
    // A sentence's full stop or comma after a URL is not part of it.
    (match) => `http://127.0.0.1:${port}${(match[1] ?? '').replace(/[.,;:]+$/, '')}`,
  )

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Runs the compiled program, asks each URL once it answers, stops it: the statuses. */
export const askServing = async (
  file: string,
  urls: ReadonlyArray<string>,
  timeoutMs: number,
): Promise<number[]> => {
  const child = spawn(process.execPath, [file], { stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
  const exited = once(child, 'exit')
  const deadline = Date.now() + timeoutMs
  const ask = async (url: string): Promise<number> => {
    try {
      return (await fetch(url)).status
    } catch (error) {
      if (child.exitCode !== null || Date.now() > deadline)
        throw new Error(`${url} never answered (${String(error)}): ${output}`)
      await sleep(100)
      return ask(url)
    }
  }
  try {
    const statuses: number[] = []
    for (const url of urls) statuses.push(await ask(url))
    return statuses
  } finally {
    if (child.exitCode === null) child.kill('SIGTERM')
    await exited
  }
}
