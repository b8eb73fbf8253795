import { Agent, request } from 'node:http'
import { auth } from '../support/app.js'

export type Answer = {
  readonly status: number
  readonly headers: Record<string, unknown>
  readonly text: string
}

export type Call = {
  readonly method?: string
  readonly path: string
  readonly headers?: Record<string, string>
  readonly body?: string
}

/** A GET, or a create with an `Idempotency-Key`: sending it again cannot do it twice. */
const retrySafe = (call: Call): boolean =>
  (call.method ?? 'GET') === 'GET' || call.headers?.['Idempotency-Key'] !== undefined

/**
 * A client at its own loopback address (`127.0.0.2`, ...), which the proxy sees as its peer;
 * its connections are kept alive between calls, as a real client's are. Like browsers and
 * Node's documented pattern (`req.reusedSocket`), it sends a retry-safe request once more when
 * a kept-alive connection closes before any answer: a proxy closes an idle client connection
 * that way when the instance behind it goes away (RFC 9110, 9.2.2).
 */
export const clientAt = (proxyPort: number, localAddress: string) => {
  const agent = new Agent({ keepAlive: true, maxSockets: 16 })
  const send = (call: Call): Promise<Answer> =>
    sendOnce(call).catch((error: NodeJS.ErrnoException & { reused?: boolean }) => {
      if (error.reused === true && error.code === 'ECONNRESET' && retrySafe(call))
        return sendOnce(call)
      throw error
    })
  const sendOnce = (call: Call): Promise<Answer> =>
    new Promise((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port: proxyPort,
          localAddress,
          agent,
          method: call.method ?? 'GET',
          path: call.path,
          headers: call.headers,
        },
        (res) => {
          const chunks: Buffer[] = []
          res.on('data', (chunk: Buffer) => chunks.push(chunk))
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              headers: res.headers,
              text: Buffer.concat(chunks).toString('utf8'),
            }),
          )
          res.on('error', reject)
        },
      )
      req.setTimeout(20_000, () => req.destroy(new Error(`no answer to ${call.path} in 20 s`)))
      req.on('error', (error) => reject(Object.assign(error, { reused: req.reusedSocket })))
      req.end(call.body)
    })
  return { send, close: () => agent.destroy() }
}

export type Client = ReturnType<typeof clientAt>

/** A create of a pet called `name`, with an Idempotency-Key when `key` is given. */
export const createCall = (name: string, key?: string): Call => ({
  method: 'POST',
  path: '/v1/pets',
  headers: {
    ...auth,
    'Content-Type': 'application/json',
    ...(key === undefined ? {} : { 'Idempotency-Key': key }),
  },
  body: JSON.stringify({ name, categoryId: 7, status: 'available' }),
})
