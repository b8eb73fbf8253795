import { connect, type Socket } from 'node:net'

/** Keeps `count` connections open from `from`, opening a new one as one closes, until stopped. */
export const hold = (port: number, from: string, count: number, open: (s: Socket) => void) => {
  let stopped = false
  const sockets = new Set<Socket>()
  const one = () => {
    if (stopped) return
    const socket = connect({ port, host: '127.0.0.1', localAddress: from })
    sockets.add(socket)
    socket.on('error', () => {})
    socket.once('connect', () => open(socket))
    socket.once('close', () => {
      sockets.delete(socket)
      setTimeout(one, 20)
    })
  }
  for (let i = 0; i < count; i++) one()
  return {
    sockets,
    stop: () => {
      stopped = true
      sockets.forEach((s) => s.destroy())
    },
  }
}
