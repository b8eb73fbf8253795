import type { ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import { isLastAnswer, pausedByNode, responseOnSocket } from '../koa-internals.js'

/**
 * Requests pipelined behind the one in progress that are carried out before they reach the
 * socket, at most: their answers are unknown in size until written, so their number is bounded.
 */
export const PIPELINED_AHEAD = 4

type Held = { readonly res: ServerResponse; readonly run: () => void }

/**
 * A connection's pipelined requests: those carried out whose answers wait for the socket, and
 * those held back, not yet carried out, because what already waits passed the bound.
 */
export type Pipeline = {
  readonly ahead: ServerResponse[]
  readonly held: Held[]
  /** Since when requests have been held back without a break (epoch ms); 0 when none is. */
  heldSince: number
  /** Whether reading stopped here (and so is resumed here). */
  paused: boolean
}

export const newPipeline = (): Pipeline => ({ ahead: [], held: [], heldSince: 0, paused: false })

/** What lets a pipelined request be carried out before its turn. */
export type Room = {
  /** Bytes of answers that may wait on one connection (socket and those ahead). */
  readonly bound: number
  /** Whether the server-wide budget says pipelined requests wait (in-flight.ts). */
  readonly crowded: () => boolean
}

/** Bytes of answers waiting on the connection: in its socket's buffer and in those ahead. */
export const waitingBytes = (pipeline: Pipeline, socket: Socket): number => {
  let bytes = socket.writableLength
  for (const res of pipeline.ahead) bytes += res.writableLength
  return bytes
}

/**
 * Few ahead, under both bounds, and no answer before it says `Connection: close`: after such an
 * answer nothing more is carried out on the connection (RFC 9112 §9.6).
 */
const mayRunAhead = (pipeline: Pipeline, socket: Socket, room: Room): boolean =>
  pipeline.ahead.length < PIPELINED_AHEAD &&
  !room.crowded() &&
  waitingBytes(pipeline, socket) < room.bound &&
  !isLastAnswer(responseOnSocket(socket)) &&
  !pipeline.ahead.some(isLastAnswer)

/**
 * Node's own pause (its `_paused`) is undone by Node on drain; resuming a socket Node paused
 * would hand its parser data it does not expect.
 */
const stopReading = (pipeline: Pipeline, socket: Socket): void => {
  if (pipeline.paused || socket.isPaused()) return
  pipeline.paused = true
  socket.pause()
}

const resumeReading = (pipeline: Pipeline, socket: Socket): void => {
  if (!pipeline.paused) return
  pipeline.paused = false
  if (!pausedByNode(socket)) socket.resume()
}

/** Carries out held requests while the bound allows, the one that has the socket in any case. */
const release = (pipeline: Pipeline, socket: Socket, room: Room): void => {
  for (let next = pipeline.held[0]; next !== undefined; next = pipeline.held[0]) {
    const itsTurn = next.res.socket !== null
    if (!itsTurn && !mayRunAhead(pipeline, socket, room)) return
    pipeline.held.shift()
    if (!itsTurn) pipeline.ahead.push(next.res)
    next.run()
  }
  pipeline.heldSince = 0
  resumeReading(pipeline, socket)
}

/**
 * A request queued behind an answer not yet sent: carried out at once while there is room
 * (mayRunAhead), else held back, with the connection no
 * longer read, until answers leave. Each answer that reaches the socket lets more through.
 */
export const runPipelined = (
  pipeline: Pipeline,
  socket: Socket,
  res: ServerResponse,
  room: Room,
  run: () => void,
): void => {
  res.once('socket', () => {
    if (pipeline.ahead[0] === res) pipeline.ahead.shift()
    release(pipeline, socket, room)
  })
  if (pipeline.held.length === 0 && mayRunAhead(pipeline, socket, room)) {
    pipeline.ahead.push(res)
    return run()
  }
  if (pipeline.held.length === 0) pipeline.heldSince = Date.now()
  pipeline.held.push({ res, run })
  stopReading(pipeline, socket)
}
