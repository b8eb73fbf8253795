import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import { answerError } from '../response/answer/index.js'
import { responseOnSocket } from '../koa-internals.js'
import { shareConnections, type ConnectionShare, type ConnectionState } from './connection-share.js'
import { watchPace, type ConnectionPace } from './connection-pace.js'
import { budgetInFlight } from './in-flight.js'
import { newPipeline, runPipelined } from './pipelined.js'
import type { WireListener } from './root-app.js'

/** Connections beyond the cap that are still accepted, only to be told 503 and closed. */
export const OVERFLOW_CONNECTIONS = 32

/**
 * Requests one connection may have waiting behind an answer not yet sent. node:http parses every
 * request of a chunk it reads (some 600 small GETs in 64 KiB) before it checks whether the client
 * takes its answers: each one waiting holds its request in memory, carried out or not.
 */
export const MAX_PIPELINED = 64

/** The server's open connections: counted, capped, drained at shutdown. */
export type Connections = {
  /** Open connections now. */
  readonly count: () => number
  /** From now on every answer says `Connection: close`; idle connections close at once. */
  readonly drain: () => void
  /** Closes every connection without a request in progress (idle keep-alive, unfinished headers). */
  readonly closeIdle: () => void
  /** Wraps the app: a request on a connection over the cap is answered 503 and not served. */
  readonly guard: (listener: WireListener) => WireListener
  /** Told when an answer is left waiting on its socket, to count it in the in-flight budget. */
  readonly waiting: (socket: Socket) => void
}

/**
 * Accounts for the server's connections and keeps them under `max`, shared out by `share`. A new
 * connection at a limit (the cap, its address's, the anonymous share) takes the place of one of
 * the holder with the most (connection-share.ts); when none may give way, the newcomer gets 503
 * `unavailable` and is closed; past `max + OVERFLOW_CONNECTIONS` it is dropped at once, so the
 * process never runs out of descriptors as long as `max` fits the limit. Pipelined requests are
 * carried out within `pace.maxBufferedBytes` (pipelined.ts), the bytes of all in flight within
 * `pace.maxInFlightBytes` (in-flight.ts), and bodies within `pace.bodyTimeoutMs`.
 */
export const trackConnections = (
  server: Server,
  max: number,
  share: ConnectionShare,
  pace: ConnectionPace,
): Connections => {
  const open = new Map<Socket, ConnectionState>() // insertion order: oldest first
  const shared = shareConnections(open, max, share)
  const inFlight = budgetInFlight(open, pace.maxInFlightBytes)
  const room = { bound: pace.maxBufferedBytes, crowded: inFlight.crowded }
  let draining = false
  watchPace(server, open, pace, inFlight)

  server.prependListener('connection', (socket: Socket) => {
    const state = shared.admit(socket)
    if (state.refused && open.size >= max + OVERFLOW_CONNECTIONS) return void socket.destroy()
    open.set(socket, state)
    socket.once('close', () => {
      inFlight.forget(state)
      shared.forget(socket)
    })
    // A refused connection that never sends a request does not linger.
    if (state.refused) socket.setTimeout(1000, () => socket.destroy())
  })

  server.prependListener('request', (_req: IncomingMessage, res: ServerResponse) => {
    if (draining) res.setHeader('Connection', 'close')
  })

  const closeIdle = () => {
    for (const socket of open.keys()) if (responseOnSocket(socket) == null) socket.destroy()
  }

  return {
    count: () => open.size,
    drain: () => {
      draining = true
      for (const socket of open.keys()) {
        const res = responseOnSocket(socket)
        if (res?.headersSent === false) res.setHeader('Connection', 'close')
      }
      closeIdle()
    },
    closeIdle,
    waiting: (socket) => {
      const state = open.get(socket)
      if (state !== undefined) inFlight.waiting(socket, state)
    },
    guard: (listener) => (req, res, inviteBody) => {
      const socket = req.socket
      const state = open.get(socket)
      // The rest of a chunk whose connection was closed (pipelining too deep, or an answer that
      // said `Connection: close` has left): not served (RFC 9112 §9.6).
      if (socket.destroyed || socket.writableEnded) return
      if (state?.refused === true) {
        res.setHeader('Retry-After', '1')
        return answerError(
          res,
          'unavailable',
          'the server has too many connections, try again later',
        )
      }
      const markKeyed = (key: string) => {
        if (state !== undefined) state.key = key
      }
      // Queued behind an answer in progress: it gets the socket (the 'socket' event) in its turn.
      if (state === undefined || res.socket !== null)
        return listener(req, res, inviteBody, markKeyed)
      const pipeline = (state.pipeline ??= newPipeline())
      if (pipeline.ahead.length + pipeline.held.length >= MAX_PIPELINED)
        return void socket.destroy()
      runPipelined(pipeline, socket, res, room, () => listener(req, res, inviteBody, markKeyed))
    },
  }
}
