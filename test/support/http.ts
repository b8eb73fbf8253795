import { request as httpRequest, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'
import { parse } from 'lossless-json'
import { createHttpServer, type HttpLimits } from '../../adapters/koa/index.js'
import { silentLogger } from '../../core/index.js'

export type Reply = {
  readonly status: number
  readonly headers: IncomingHttpHeaders
  readonly text: string
  /** The body parsed with integers as bigints, so int64 values are checked exactly. */
  readonly json: unknown
}

export type Request = {
  readonly method?: string
  readonly path: string
  readonly headers?: Record<string, string>
  readonly body?: string | Buffer
}

export type Client = {
  readonly port: number
  /** The server's open connections now. */
  readonly connections: () => number
  readonly request: (req: Request) => Promise<Reply>
  readonly close: () => Promise<void>
}

const parseReply = (text: string): unknown => {
  try {
    return parse(text, null, (n) => (/^-?\d+$/.test(n) ? BigInt(n) : Number(n)))
  } catch {
    return undefined
  }
}

/** Sends one request with node:http, which (unlike fetch) allows any method and raw bodies. */
export const send = (port: number, req: Request): Promise<Reply> =>
  new Promise((resolve, reject) => {
    const r = httpRequest(
      {
        host: '127.0.0.1',
        port,
        method: req.method ?? 'GET',
        path: req.path,
        headers: req.headers,
      },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8')
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            text,
            json: parseReply(text),
          })
        })
      },
    )
    r.on('error', reject)
    r.end(req.body)
  })

/** The server's own defaults (HTTP_LIMIT_DEFAULTS): no limit given. */
export const DEFAULT_LIMITS: HttpLimits = {}

/**
 * Serves an app (as the service does: the server's root application) or a request listener on an
 * ephemeral loopback port through the real server's wrapper.
 */
export const serve = async (
  appOrListener: Parameters<typeof createHttpServer>[0],
  limits: HttpLimits = DEFAULT_LIMITS,
): Promise<Client> => {
  const { server, connections } = createHttpServer(appOrListener, limits, silentLogger)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  return {
    port,
    connections: connections.count,
    request: (req) => send(port, req),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
