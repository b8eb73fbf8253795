import { fork, type ChildProcess } from 'node:child_process'
import { Agent, request } from 'node:http'
import { IDEMPOTENCY_KEY_MAX_LENGTH, PET_NAME_MAX_LENGTH } from '../../core/index.js'
import { startFlags } from '../support/start-command.js'
import type { HeapServiceMessage } from './heap-service.js'

export type HeapService = {
  readonly port: number
  readonly maxPets: number
  readonly heapLimit: number
  readonly child: ChildProcess
  /** Heap used after two full collections, in bytes. */
  readonly heapUsed: () => Promise<number>
  readonly stop: () => Promise<void>
}

/** heap-service.ts in its own process, its old space capped at `heapMb`. */
export const startHeapService = (
  env: Record<string, string>,
  heapMb: number,
): Promise<HeapService> =>
  new Promise((resolve, reject) => {
    const child = fork(new URL('./heap-service.ts', import.meta.url).pathname, [], {
      env: { PATH: process.env.PATH ?? '', ...env },
      // The service's own flags (its young generation among them), then the cap.
      execArgv: [
        ...startFlags(),
        '--expose-gc',
        `--max-old-space-size=${heapMb}`,
        '--import',
        'tsx',
      ],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    })
    const next = () =>
      new Promise<HeapServiceMessage>((done) =>
        child.once('message', (m) => done(m as HeapServiceMessage)),
      )
    const exited = new Promise<void>((done) => child.once('exit', () => done()))
    child.once('exit', (code) => reject(new Error(`heap service exited ${code}`)))
    void next().then((first) => {
      if (!('listening' in first)) return reject(new Error(JSON.stringify(first)))
      resolve({
        ...first.listening,
        child,
        heapUsed: async () => {
          const reply = next()
          child.send('heap')
          const m = await reply
          return 'heapUsed' in m ? m.heapUsed : Number.NaN
        },
        stop: async () => {
          child.send('stop')
          await exited
        },
      })
    })
  })

const agent = new Agent({ keepAlive: true, maxSockets: 8 })

/** One request on the shared keep-alive agent; its status, body and Link header. */
export const call = (
  port: number,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; text: string; link: string | undefined }> =>
  new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, headers, agent }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          text: Buffer.concat(chunks).toString('utf8'),
          link: typeof res.headers.link === 'string' ? res.headers.link : undefined,
        }),
      )
    })
    req.once('error', reject).end(body)
  })

/** The longest name, in characters outside the BMP (two UTF-16 units each), new for each pet. */
const longestName = (i: number): string =>
  Array.from({ length: PET_NAME_MAX_LENGTH }, (_, k) =>
    String.fromCodePoint(0x1f400 + ((i + k) % 64)),
  ).join('')

/** The longest Idempotency-Key there is, different for each pet. */
const longestKey = (i: number): string => String(i).padStart(IDEMPOTENCY_KEY_MAX_LENGTH, 'k')

/**
 * The worst case per pet: keyed creates of the longest names in 4-byte characters, the largest
 * category id and a status, until the store is full (507) or `count` are made; how many.
 */
export const fillWorstCase = async (port: number, writer: string, count: number) => {
  let created = 0
  let full = false
  const worker = async () => {
    while (!full && created < count) {
      const i = created++
      const body = JSON.stringify({ name: longestName(i), status: 'available' }).replace(
        /}$/,
        ',"categoryId":9223372036854775807}',
      )
      const reply = await call(
        port,
        'POST',
        '/v1/pets',
        {
          authorization: `Bearer ${writer}`,
          'content-type': 'application/json',
          'idempotency-key': longestKey(i),
        },
        body,
      )
      if (reply.status === 507) {
        full = true
        created--
      } else if (reply.status !== 201) throw new Error(`create ${i}: ${reply.status} ${reply.text}`)
    }
  }
  await Promise.all(Array.from({ length: 8 }, worker))
  return created
}

/** Every page of pets at `limit`, following `Link: rel="next"`; how many pets were read. */
export const walkAll = async (port: number, reader: string, limit = 100): Promise<number> => {
  let path: string | undefined = `/v1/pets?limit=${limit}`
  let read = 0
  while (path !== undefined) {
    const reply = await call(port, 'GET', path, { authorization: `Bearer ${reader}` })
    if (reply.status !== 200) throw new Error(`${path}: ${reply.status} ${reply.text}`)
    read += (JSON.parse(reply.text) as unknown[]).length
    path = reply.link === undefined ? undefined : /^<([^>]*)>/.exec(reply.link)?.[1]
  }
  return read
}

export const stopAgent = () => agent.destroy()
