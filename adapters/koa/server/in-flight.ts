import type { Socket } from 'node:net'
import type { ConnectionState } from './connection-share.js'
import { waitingBytes } from './pipelined.js'

/**
 * Closes a connection with a reset, its unsent data dropped: closed the usual way, a socket whose
 * client reads nothing keeps its unsent answer in the kernel's memory for minutes.
 */
export const dropConnection = (socket: Socket): void => {
  if (socket.destroyed) return
  try {
    socket.resetAndDestroy()
  } catch {
    socket.destroy() // not TCP (a pipe): nothing kept for a reader
  }
}

/** Bytes of answers waiting on a connection in the process: in its socket's buffer and ahead. */
const waitingOn = (socket: Socket, state: ConnectionState): number =>
  state.pipeline === undefined ? socket.writableLength : waitingBytes(state.pipeline, socket)

/**
 * One budget for the bytes that work in flight holds, summed over every connection: answers
 * waiting on sockets and those of requests carried out ahead of their turn. The sum is kept up
 * to date as answers are left waiting and connections close, and counted afresh every tick
 * (answers the kernel took since are then let go). Past half of it pipelined requests wait for
 * their turn (`crowded`); past all of it, counted afresh, the connections holding the most are
 * reset, their unsent data dropped (the kernel's copy too), until the sum is back under it.
 */
export const budgetInFlight = (open: Map<Socket, ConnectionState>, budget: number) => {
  let total = 0
  const recount = () => {
    total = 0
    for (const [socket, state] of open) total += state.waiting = waitingOn(socket, state)
    if (total <= budget) return
    const holding = [...open].filter(([, state]) => state.waiting > 0)
    holding.sort(([, a], [, b]) => b.waiting - a.waiting)
    for (const [socket, state] of holding) {
      if (total <= budget) return
      total -= state.waiting
      state.waiting = 0
      dropConnection(socket)
    }
  }
  return {
    /** An answer was left waiting on this connection. */
    waiting: (socket: Socket, state: ConnectionState): void => {
      const now = waitingOn(socket, state)
      total += now - state.waiting
      state.waiting = now
      if (total > budget) recount()
    },
    forget: (state: ConnectionState): void => {
      total -= state.waiting
      state.waiting = 0
    },
    crowded: (): boolean => total > budget / 2,
    recount,
  }
}

export type InFlight = ReturnType<typeof budgetInFlight>
