import { connect, type Socket } from 'node:net'

export type RawReply = { status: number; head: string; body: string }

/** Sends raw bytes (requests no HTTP client would send) and reads until the server closes. */
export const sendRaw = (port: number, bytes: string | Buffer): Promise<RawReply> =>
  new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1')
    const chunks: Buffer[] = []
    socket.on('data', (c: Buffer) => chunks.push(c))
    socket.on('error', reject)
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8')
      const [head = '', body = ''] = text.split('\r\n\r\n', 2)
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0), head, body })
    })
    socket.setTimeout(5000, () => socket.destroy())
    socket.end(bytes)
  })

export type RawConnection = {
  readonly socket: Socket
  /** Everything the server sent so far. */
  readonly received: () => string
  /** Resolves when the server has closed the connection (or it was reset). */
  readonly closed: Promise<void>
  /** Resolves once the received text matches, or rejects after `ms`. */
  readonly waitFor: (pattern: RegExp, ms?: number) => Promise<string>
}

/**
 * A connection kept open, to send a request in parts and watch what comes back when. With
 * `allowHalfOpen`, the client does not close its side when the server closes its own, as a
 * careless or hostile client would not.
 */
export const openRaw = (
  port: number,
  options: { readonly allowHalfOpen?: boolean } = {},
): Promise<RawConnection> =>
  new Promise((resolve, reject) => {
    const socket = connect({ port, host: '127.0.0.1', allowHalfOpen: options.allowHalfOpen })
    let text = ''
    const waiters: Array<() => void> = []
    socket.on('data', (c: Buffer) => {
      text += c.toString('utf8')
      waiters.splice(0).forEach((w) => w())
    })
    socket.on('error', () => {})
    const closed = new Promise<void>((done) => socket.on('close', () => done()))
    const waitFor = (pattern: RegExp, ms = 5000) =>
      new Promise<string>((done, fail) => {
        const timer = setTimeout(() => fail(new Error(`no ${pattern} in: ${text}`)), ms)
        const check = () => {
          if (pattern.test(text)) {
            clearTimeout(timer)
            done(text)
          } else waiters.push(check)
        }
        check()
        void closed.then(() => {
          if (!pattern.test(text)) fail(new Error(`closed without ${pattern}: ${text}`))
        })
      })
    socket.once('connect', () => resolve({ socket, received: () => text, closed, waitFor }))
    socket.once('error', reject)
  })
