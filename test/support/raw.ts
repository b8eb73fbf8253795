import { connect } from 'node:net'

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
