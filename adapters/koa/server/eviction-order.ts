import type { ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import type { ConnectionState } from './connection-share.js'

/**
 * Whether a request is in progress on the connection: node:http gives the socket to the request's
 * response as soon as the request line and headers are in, until the response is finished. Read
 * here rather than counted with a listener on every response (a listener per request).
 */
export const responseOf = (socket: Socket): ServerResponse | null | undefined =>
  (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage
export const busy = (socket: Socket): boolean => responseOf(socket) != null

/**
 * Which connections give way first, lowest first. Not making progress: an anonymous one that is
 * idle (a keep-alive, a slowloris still sending headers), whose answer has stalled (more of it
 * waiting than the socket's buffer holds: the client is not reading) or whose request body
 * stalled (below the minimum rate). Then a keyed one whose body stalled; then one opened less
 * than FRESH_MS ago that has not sent a byte yet (its request is on its way); then a keyed idle
 * one; then a keyed one whose answer stalled; then, only to keep anonymous connections to their
 * share, an anonymous one with a request in progress. A keyed request in progress that is sending
 * its body or taking its answer never.
 */
export const NOT_PROGRESSING = 0
export const KEYED_BODY_STALLED = 1
export const FRESH = 2
export const KEYED_IDLE = 3
export const KEYED_STALLED = 4
export const ANONYMOUS_BUSY = 5

/** How long a new connection that has sent nothing yet counts as fresh. */
export const FRESH_MS = 1000

const rankOf = (socket: Socket, state: ConnectionState, now: number): number => {
  const res = responseOf(socket)
  const keyed = state.key !== undefined
  if (res == null && !keyed && socket.bytesRead === 0 && now - state.openedAt < FRESH_MS)
    return FRESH
  if (res == null) return keyed ? KEYED_IDLE : NOT_PROGRESSING
  if (state.stalledBody === res.req && !res.req.complete)
    return keyed ? KEYED_BODY_STALLED : NOT_PROGRESSING
  const taking = !socket.writableNeedDrain
  if (!keyed) return taking ? ANONYMOUS_BUSY : NOT_PROGRESSING
  return taking ? Infinity : KEYED_STALLED
}

type Holding = { count: number; youngestIdle: Socket | undefined; at: number }

/**
 * Among idle keyed connections, the most recent one of the key that holds the most connections
 * (on a tie, the most recent of theirs): a key's newcomers take the places of its own before any
 * other key's, and a key that holds no more than another never gives way to it.
 */
const fairestIdle = (holdings: Map<string, Holding>): Socket | undefined => {
  let chosen: Holding | undefined
  for (const h of holdings.values()) {
    if (h.youngestIdle === undefined) continue
    const more = chosen === undefined || h.count > chosen.count
    if (more || (h.count === chosen?.count && h.at > chosen.at)) chosen = h
  }
  return chosen?.youngestIdle
}

/**
 * The connection to close among those `among` accepts, ranked up to `worst`: the oldest of the
 * lowest rank, except idle keyed ones, chosen by key (fairestIdle).
 */
export const connectionToEvict = (
  open: Map<Socket, ConnectionState>,
  worst: number,
  among: (socket: Socket, state: ConnectionState) => boolean,
): Socket | undefined => {
  let chosen: Socket | undefined
  let best = worst + 1
  const holdings = new Map<string, Holding>()
  let at = 0
  const now = Date.now()
  for (const [socket, state] of open) {
    if (!among(socket, state)) continue
    const rank = rankOf(socket, state, now)
    if (rank === NOT_PROGRESSING) return socket
    if (state.key !== undefined) {
      const h = holdings.get(state.key) ?? { count: 0, youngestIdle: undefined, at: 0 }
      h.count++
      if (rank === KEYED_IDLE) [h.youngestIdle, h.at] = [socket, at++]
      holdings.set(state.key, h)
    }
    if (rank < best) [best, chosen] = [rank, socket]
  }
  return best === KEYED_IDLE ? fairestIdle(holdings) : chosen
}
