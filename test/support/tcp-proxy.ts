import { connect, createServer, type Socket } from 'node:net'
import type { AddressInfo } from 'node:net'

export type TcpProxy = {
  readonly port: number
  /** Stops forwarding either way; connections stay open, as with a hung server. */
  readonly stall: () => void
  /** Delays every answer of the server by `ms`: a slow database. */
  readonly delay: (ms: number) => void
  readonly close: () => Promise<void>
}

/**
 * A loopback proxy to `targetPort` that can stall: a database that stops answering. On
 * `listenPort` when given (a database that comes up where a client was already told to look).
 */
export const startTcpProxy = async (targetPort: number, listenPort = 0): Promise<TcpProxy> => {
  let stalled = false
  let delayMs = 0
  const sockets = new Set<Socket>()
  const server = createServer((client) => {
    const upstream = connect(targetPort, '127.0.0.1')
    for (const [from, to] of [
      [client, upstream],
      [upstream, client],
    ] as const) {
      sockets.add(from)
      const slow = from === upstream
      from.on('data', (chunk) => {
        if (stalled) return
        if (slow && delayMs > 0) setTimeout(() => to.write(chunk), delayMs)
        else to.write(chunk)
      })
      from.on('error', () => to.destroy())
      from.on('close', () => (sockets.delete(from), to.destroy()))
    }
  })
  await new Promise<void>((resolve) => server.listen(listenPort, '127.0.0.1', resolve))
  return {
    port: (server.address() as AddressInfo).port,
    stall: () => void (stalled = true),
    delay: (ms) => void (delayMs = ms),
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => resolve())
      }),
  }
}
