import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import { answerError } from './client-error.js'
import type { WireListener } from './root-app.js'

/** Connections beyond the cap that are still accepted, only to be told 503 and closed. */
export const OVERFLOW_CONNECTIONS = 32

/**
 * Requests one connection may have waiting behind an answer not yet sent. node:http parses every
 * request of a chunk it reads (some 600 small GETs in 64 KiB) before it checks whether the client
 * takes its answers, and each gets one: a client that pipelines without reading would have them
 * all held in memory, hundreds of MB per connection (seen: a crash, out of heap, in 40 s).
 */
export const MAX_PIPELINED = 64

type State = { refused: boolean; queued: number }

/**
 * Whether a request is in progress on the connection: node:http gives the socket to the request's
 * response as soon as the request line and headers are in, until the response is finished. Read
 * here rather than counted with a listener on every response (a listener per request).
 */
const responseOf = (socket: Socket): ServerResponse | null | undefined =>
  (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage
const busy = (socket: Socket): boolean => responseOf(socket) != null

export type Connections = {
  /** Open connections now. */
  readonly count: () => number
  /** From now on every answer says `Connection: close`; idle connections close at once. */
  readonly drain: () => void
  /** Closes every connection without a request in progress (idle keep-alive, unfinished headers). */
  readonly closeIdle: () => void
  /** Wraps the app: a request on a connection over the cap is answered 503 and not served. */
  readonly guard: (listener: WireListener) => WireListener
}

/**
 * Accounts for the server's connections and keeps them under `max`. A new connection at the cap
 * takes the place of the oldest one that has no request in progress (an idle keep-alive or a
 * slowloris still sending headers); when every one is busy, the newcomer gets 503 `unavailable`
 * and is closed; past `max + OVERFLOW_CONNECTIONS` it is dropped at once. A request in progress
 * is never cut, and the process never runs out of descriptors as long as `max` fits the limit.
 */
export const trackConnections = (server: Server, max: number): Connections => {
  const open = new Map<Socket, State>() // insertion order: oldest first
  let draining = false

  const evictIdle = (): boolean => {
    for (const [socket, state] of open)
      if (!state.refused && !busy(socket)) {
        socket.destroy()
        open.delete(socket)
        return true
      }
    return false
  }

  server.prependListener('connection', (socket: Socket) => {
    if (open.size >= max && !evictIdle() && open.size >= max + OVERFLOW_CONNECTIONS) {
      socket.destroy()
      return
    }
    const state: State = { refused: open.size >= max, queued: 0 }
    open.set(socket, state)
    socket.once('close', () => open.delete(socket))
    // A refused connection that never sends a request does not linger.
    if (state.refused) socket.setTimeout(1000, () => socket.destroy())
  })

  server.prependListener('request', (_req: IncomingMessage, res: ServerResponse) => {
    if (draining) res.setHeader('Connection', 'close')
  })

  const closeIdle = () => {
    for (const socket of open.keys()) if (!busy(socket)) socket.destroy()
  }

  return {
    count: () => open.size,
    drain: () => {
      draining = true
      for (const socket of open.keys()) {
        const res = responseOf(socket)
        if (res?.headersSent === false) res.setHeader('Connection', 'close')
      }
      closeIdle()
    },
    closeIdle,
    guard: (listener) => (req, res, inviteBody) => {
      const state = open.get(req.socket)
      // The rest of a chunk whose connection was closed for pipelining too deep: not served.
      if (req.socket.destroyed) return
      if (state?.refused === true) {
        res.setHeader('Retry-After', '1')
        return answerError(
          res,
          'unavailable',
          'the server has too many connections, try again later',
        )
      }
      // Queued behind an answer in progress: it gets the socket (the 'socket' event) in its turn.
      if (state !== undefined && res.socket === null) {
        if (++state.queued > MAX_PIPELINED) return void req.socket.destroy()
        res.once('socket', () => state.queued--)
      }
      return listener(req, res, inviteBody)
    },
  }
}
