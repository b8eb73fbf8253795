import type { ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import { budgetKeyOf } from '../request/address-budget.js'
import { unmapIpv4 } from '../request/client-address.js'

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
 * `refused`: over a limit, to be told 503 and closed. `address`: whose per-address count it is
 * in (none for a trusted proxy's, or without that cap). `keyed`: it has carried a request with a
 * valid key (the app says so through the listener's `markKeyed`).
 */
export type ConnectionState = {
  refused: boolean
  queued: number
  address: string | undefined
  keyed: boolean
}

type IsKeyed = (socket: Socket) => boolean

/**
 * Whether a request is in progress on the connection: node:http gives the socket to the request's
 * response as soon as the request line and headers are in, until the response is finished. Read
 * here rather than counted with a listener on every response (a listener per request).
 */
export const responseOf = (socket: Socket): ServerResponse | null | undefined =>
  (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage
export const busy = (socket: Socket): boolean => responseOf(socket) != null

/**
 * Which connections give way first, lowest first: an anonymous one that is idle (a keep-alive, a
 * slowloris still sending headers) or whose answer has stalled (more of it waiting than the
 * socket's buffer holds: the client is not reading); then a keyed idle one; then a keyed one
 * whose answer stalled; then, only to keep anonymous connections to their share, an anonymous
 * one with a request in progress. A keyed request in progress that is taking its answer never.
 */
const ANONYMOUS_IDLE_OR_STALLED = 0
const KEYED_IDLE = 1
const KEYED_STALLED = 2
const ANONYMOUS_BUSY = 3

const rankOf = (socket: Socket, isKeyed: IsKeyed): number => {
  const waiting = busy(socket) && !socket.writableNeedDrain
  if (!isKeyed(socket)) return waiting ? ANONYMOUS_BUSY : ANONYMOUS_IDLE_OR_STALLED
  return waiting ? Infinity : busy(socket) ? KEYED_STALLED : KEYED_IDLE
}

/** The oldest connection of the lowest rank up to `worst` that `among` accepts, if any. */
const connectionToEvict = (
  sockets: Iterable<Socket>,
  worst: number,
  among: (socket: Socket) => boolean,
  isKeyed: IsKeyed,
): Socket | undefined => {
  let chosen: Socket | undefined
  let best = worst + 1
  for (const socket of sockets) {
    if (!among(socket)) continue
    const rank = rankOf(socket, isKeyed)
    if (rank === ANONYMOUS_IDLE_OR_STALLED) return socket
    if (rank < best) [best, chosen] = [rank, socket]
  }
  return chosen
}

const anonymousCount = (sockets: Iterable<Socket>, isKeyed: IsKeyed): number => {
  let n = 0
  for (const socket of sockets) if (!isKeyed(socket)) n++
  return n
}

/**
 * Admits new connections into `open` (oldest first) under the cap `max` and the share, closing
 * one that may give way when a limit is reached; a newcomer for whom none does is refused.
 */
export const shareConnections = (
  open: Map<Socket, ConnectionState>,
  max: number,
  share: ConnectionShare,
) => {
  const perAddress = new Map<string, number>()
  const { maxAnonymous = Infinity, maxPerAddress = Infinity, isProxy = () => false } = share
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
  const isKeyed = (socket: Socket) => open.get(socket)?.keyed === true
  /** Closes one that may give way (ranked up to `worst`, among `among`); whether there was one. */
  const evict = (worst: number, among: (socket: Socket) => boolean = admitted): boolean => {
    const chosen = connectionToEvict(open.keys(), worst, (s) => admitted(s) && among(s), isKeyed)
    chosen?.destroy()
    if (chosen !== undefined) forget(chosen)
    return chosen !== undefined
  }
  const makeRoom = (address: string | undefined): boolean => {
    const ofAddress = (s: Socket) => open.get(s)?.address === address
    if (address !== undefined && (perAddress.get(address) ?? 0) >= maxPerAddress)
      if (!evict(KEYED_STALLED, ofAddress)) return false
    if (open.size >= maxAnonymous && anonymousCount(open.keys(), isKeyed) >= maxAnonymous)
      evict(ANONYMOUS_BUSY, (s) => !isKeyed(s))
    return open.size < max || evict(KEYED_STALLED)
  }
  return {
    /** The newcomer's state: refused when no room could be made. */
    admit: (socket: Socket): ConnectionState => {
      const peer = socket.remoteAddress ?? ''
      const address =
        maxPerAddress === Infinity || isProxy(peer) ? undefined : budgetKeyOf(unmapIpv4(peer))
      const refused = !makeRoom(address)
      if (!refused) count(address, 1)
      return { refused, queued: 0, address, keyed: false }
    },
    forget,
  }
}
