import type { ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import { isKeyed } from './keyed-connections.js'

/** How the connection cap is shared out; every limit is off when absent. */
export type ConnectionShare = {
  /** Connections not (yet) known to carry a valid key, at most. */
  readonly maxAnonymous?: number | undefined
  /** Connections from one client address (an IPv6 /64) at most; trusted proxies are exempt. */
  readonly maxPerAddress?: number | undefined
  /** Whether a peer is a trusted proxy (TRUST_PROXY): its connections carry many clients. */
  readonly isProxy?: ((peer: string) => boolean) | undefined
}

/**
 * Whether a request is in progress on the connection: node:http gives the socket to the request's
 * response as soon as the request line and headers are in, until the response is finished. Read
 * here rather than counted with a listener on every response (a listener per request).
 */
export const responseOf = (socket: Socket): ServerResponse | null | undefined =>
  (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage
export const busy = (socket: Socket): boolean => responseOf(socket) != null

/**
 * Which connection gives way first, lowest first: an anonymous one that is idle (a keep-alive, a
 * slowloris still sending headers) or whose answer has stalled (more of it waiting than the
 * socket's buffer holds: the client is not reading); then a keyed idle one; then a keyed one
 * whose answer stalled; then, only to keep anonymous connections to their share, an anonymous
 * one with a request in progress. A keyed request in progress that is taking its answer never.
 */
const rankOf = (socket: Socket): number => {
  const waiting = busy(socket) && !socket.writableNeedDrain
  if (!isKeyed(socket)) return waiting ? 3 : 0
  return waiting ? Infinity : busy(socket) ? 2 : 1
}

/**
 * The connection to close to make room, the oldest of the lowest rank up to `worst`, among
 * `sockets` (oldest first) that `among` accepts; undefined when none may go.
 */
export const victim = (
  sockets: Iterable<Socket>,
  worst: number,
  among: (socket: Socket) => boolean = () => true,
): Socket | undefined => {
  let chosen: Socket | undefined
  let best = worst + 1
  for (const socket of sockets) {
    if (!among(socket)) continue
    const rank = rankOf(socket)
    if (rank === 0) return socket
    if (rank < best) {
      best = rank
      chosen = socket
    }
  }
  return chosen
}

export const anonymousCount = (sockets: Iterable<Socket>): number => {
  let n = 0
  for (const socket of sockets) if (!isKeyed(socket)) n++
  return n
}
