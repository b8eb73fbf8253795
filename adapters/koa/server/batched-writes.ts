import type { ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import { dropConnection } from './in-flight.js'

/**
 * A client that does not take its answer (the kernel's buffer full, the rest waiting here) would
 * hold its connection, never idle, for as long as it liked. Once nothing more leaves for the
 * server's request timeout, the connection is reset (its unsent data dropped): Node's socket
 * timeout counts any progress of a partly written answer.
 */
const closeIfNotTaken = (res: ServerResponse): void => {
  const socket = res.req.socket as Socket & { server?: { requestTimeout?: number } }
  const ms = socket.server?.requestTimeout ?? 0
  // On the socket now, or when the answer gets it (a pipelined one waits for those before it).
  if (ms > 0) res.setTimeout(ms, () => dropConnection(socket))
}

/**
 * Sends string and buffer bodies in one write(2) at the end of the event-loop turn, together with
 * the turn's other answers. Why together: a write to a socket whose reader sleeps wakes the
 * reader, and that wake-up is charged to the writer; written back to back, the first answer wakes
 * the client and the rest find it awake (bench/HISTORY.md). An answer waits at most for the rest
 * of the turn (the requests that arrived with it), never for a timer or for I/O. An answer left
 * waiting in the process (not taken by the kernel, or queued behind another) is told `waiting`.
 */
export const createBatch = (waiting: (socket: Socket) => void = () => {}) => {
  let queued: ServerResponse[] = []
  const sendQueued = (): void => {
    const answers = queued
    queued = []
    for (const res of answers) {
      const socket = res.socket
      // Flushed before end(), so the headers and body leave in one write and end() has nothing
      // left to send: Node 20 would otherwise join an empty end-of-message write to them (writev).
      socket?.uncork()
      res.end()
      if (socket === null || socket.writableLength === 0) continue
      closeIfNotTaken(res)
      waiting(socket)
    }
  }
  return (res: ServerResponse, body: string | Buffer): void => {
    const socket = res.socket
    // A pipelined answer whose socket is not yet its own: Node holds it until those before it.
    if (socket === null) {
      closeIfNotTaken(res)
      res.end(body)
      return waiting(res.req.socket)
    }
    socket.cork()
    if (queued.length === 0) setImmediate(sendQueued)
    queued.push(res)
    res.write(body)
  }
}
