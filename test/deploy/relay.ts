import { connect, createServer, type AddressInfo, type Socket } from 'node:net'

export type Relays = {
  readonly ports: ReadonlyArray<number>
  /** The next POST's answer never reaches the proxy: its connection closes instead. */
  readonly dropNextPostAnswer: () => void
  /** How many answers were dropped. */
  readonly dropped: () => number
  readonly close: () => Promise<void>
}

/**
 * One loopback relay in front of each instance: an instance that did the work and died before
 * its answer left, as the proxy sees it. Which instance gets the POST is the proxy's choice, so
 * the relays share one switch.
 */
export const startRelays = async (targets: ReadonlyArray<number>): Promise<Relays> => {
  let armed = false
  let dropped = 0
  const sockets = new Set<Socket>()
  const relay = (targetPort: number) =>
    createServer((proxySide) => {
      const instanceSide = connect(targetPort, '127.0.0.1')
      let dropping = false
      for (const socket of [proxySide, instanceSide]) {
        sockets.add(socket)
        socket.on('close', () => sockets.delete(socket))
        socket.on('error', () => undefined)
      }
      proxySide.on('data', (chunk: Buffer) => {
        if (armed && chunk.subarray(0, 5).toString('latin1') === 'POST ') {
          ;[armed, dropping] = [false, true]
        }
        instanceSide.write(chunk)
      })
      instanceSide.on('data', (chunk: Buffer) => {
        if (!dropping) return void proxySide.write(chunk)
        dropped++
        proxySide.destroy()
        instanceSide.destroy()
      })
      proxySide.on('close', () => instanceSide.destroy())
      instanceSide.on('close', () => proxySide.destroy())
    })
  const servers = await Promise.all(
    targets.map(
      (port) =>
        new Promise<ReturnType<typeof relay>>((resolve) => {
          const server = relay(port).listen(0, '127.0.0.1', () => resolve(server))
        }),
    ),
  )
  return {
    ports: servers.map((server) => (server.address() as AddressInfo).port),
    dropNextPostAnswer: () => void (armed = true),
    dropped: () => dropped,
    close: async () => {
      for (const socket of sockets) socket.destroy()
      await Promise.all(servers.map((server) => new Promise((done) => server.close(done))))
    },
  }
}
