import type { IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import { budgetKeyOf } from './address-budget.js'
import { plain } from './client-address.js'
import { answerError } from './client-error.js'
import {
  anonymousCount,
  busy,
  responseOf,
  victim,
  type ConnectionShare,
} from './connection-share.js'
import { isKeyed } from './keyed-connections.js'

/** Connections beyond the cap that are still accepted, only to be told 503 and closed. */
export const OVERFLOW_CONNECTIONS = 32

/**
 * Requests one connection may have waiting behind an answer not yet sent. node:http parses every
 * request of a chunk it reads (some 600 small GETs in 64 KiB) before it checks whether the client
 * takes its answers, and each gets one: a client that pipelines without reading would have them
 * all held in memory, hundreds of MB per connection (seen: a crash, out of heap, in 40 s).
 */
export const MAX_PIPELINED = 64

/** `address`: whose per-address count it is in (none for a trusted proxy's, or without the cap). */
type State = { refused: boolean; queued: number; address: string | undefined }

export type Connections = {
  /** Open connections now. */
  readonly count: () => number
  /** From now on every answer says `Connection: close`; idle connections close at once. */
  readonly drain: () => void
  /** Closes every connection without a request in progress (idle keep-alive, unfinished headers). */
  readonly closeIdle: () => void
  /** Wraps the app: a request on a connection over the cap is answered 503 and not served. */
  readonly guard: (listener: RequestListener) => RequestListener
}

/**
 * Accounts for the server's connections and keeps them under `max`, shared out by `share`. A new
 * connection at a limit (the cap, its address's, the anonymous share) takes the place of one
 * that may give way (see connection-share.ts: idle or stalled anonymous ones first, keyed ones
 * last); when none may, the newcomer gets 503 `unavailable` and is closed; past
 * `max + OVERFLOW_CONNECTIONS` it is dropped at once. A keyed request in progress whose answer
 * is being taken is never cut, and the process never runs out of descriptors as long as `max`
 * fits the limit.
 */
export const trackConnections = (
  server: Server,
  max: number,
  share: ConnectionShare = {},
): Connections => {
  const open = new Map<Socket, State>() // insertion order: oldest first
  const perAddress = new Map<string, number>()
  const { maxAnonymous = Infinity, maxPerAddress = Infinity, isProxy = () => false } = share
  let draining = false

  const count = (address: string | undefined, by: number) => {
    if (address === undefined) return
    const n = (perAddress.get(address) ?? 0) + by
    if (n === 0) perAddress.delete(address)
    else perAddress.set(address, n)
  }
  const forget = (socket: Socket) => {
    const state = open.get(socket)
    if (state === undefined) return
    open.delete(socket)
    if (!state.refused) count(state.address, -1)
  }
  const admitted = (socket: Socket) => open.get(socket)?.refused === false
  /** Closes one that may give way (of rank up to `worst`, among `among`); whether there was one. */
  const evict = (worst: number, among: (socket: Socket) => boolean = admitted): boolean => {
    const chosen = victim(open.keys(), worst, (s) => admitted(s) && among(s))
    chosen?.destroy()
    if (chosen !== undefined) forget(chosen)
    return chosen !== undefined
  }
  /** Makes room for a newcomer from `address` under every limit; false when it must be refused. */
  const makeRoom = (address: string | undefined): boolean => {
    if (address !== undefined && (perAddress.get(address) ?? 0) >= maxPerAddress)
      if (!evict(2, (s) => open.get(s)?.address === address)) return false
    if (open.size >= maxAnonymous && anonymousCount(open.keys()) >= maxAnonymous)
      evict(3, (s) => !isKeyed(s))
    return open.size < max || evict(2)
  }

  server.prependListener('connection', (socket: Socket) => {
    const peer = socket.remoteAddress ?? ''
    const address =
      maxPerAddress === Infinity || isProxy(peer) ? undefined : budgetKeyOf(plain(peer))
    const refused = !makeRoom(address)
    if (refused && open.size >= max + OVERFLOW_CONNECTIONS) return void socket.destroy()
    open.set(socket, { refused, queued: 0, address })
    if (!refused) count(address, 1)
    socket.once('close', () => forget(socket))
    // A refused connection that never sends a request does not linger.
    if (refused) socket.setTimeout(1000, () => socket.destroy())
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
    guard: (listener) => (req, res) => {
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
      return listener(req, res)
    },
  }
}
