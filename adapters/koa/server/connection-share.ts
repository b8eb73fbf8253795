import type { IncomingMessage } from 'node:http'
import type { Socket } from 'node:net'
import { budgetKeyOf } from '../request/address-budget.js'
import { unmapIpv4 } from '../request/client-address.js'
import { ANONYMOUS_BUSY, KEYED_STALLED, connectionToEvict } from './eviction-order.js'
import type { Pipeline } from './pipelined.js'

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
 * in (none for a trusted proxy's, or without that cap). `key`: the key of the last request it
 * carried with a valid key (the app says so through the listener's `markKeyed`). The rest is
 * set as needed: its pipelined requests, and the watch on its request's body (body-watch.ts).
 */
export type ConnectionState = {
  refused: boolean
  address: string | undefined
  key: string | undefined
  /** When it was accepted (ms since the epoch). */
  openedAt: number
  pipeline: Pipeline | undefined
  /** The request whose body was seen in progress, since when, and the socket's bytes read. */
  watchedBody: IncomingMessage | undefined
  watchedSince: number
  bytesAtTick: number
  /** The request whose body arrived below the minimum rate at the last tick. */
  stalledBody: IncomingMessage | undefined
}

const anonymousCount = (open: Map<Socket, ConnectionState>): number => {
  let n = 0
  for (const state of open.values()) if (state.key === undefined) n++
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
  type Among = (socket: Socket, state: ConnectionState) => boolean
  /** Closes one that may give way (ranked up to `worst`, among `among`); whether there was one. */
  const evict = (worst: number, among: Among = () => true): boolean => {
    const chosen = connectionToEvict(open, worst, (s, state) => !state.refused && among(s, state))
    chosen?.destroy()
    if (chosen !== undefined) forget(chosen)
    return chosen !== undefined
  }
  const makeRoom = (address: string | undefined): boolean => {
    if (address !== undefined && (perAddress.get(address) ?? 0) >= maxPerAddress)
      if (!evict(KEYED_STALLED, (_, state) => state.address === address)) return false
    if (open.size >= maxAnonymous && anonymousCount(open) >= maxAnonymous)
      evict(ANONYMOUS_BUSY, (_, state) => state.key === undefined)
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
      return {
        refused,
        address,
        key: undefined,
        openedAt: Date.now(),
        pipeline: undefined,
        watchedBody: undefined,
        watchedSince: 0,
        bytesAtTick: 0,
        stalledBody: undefined,
      }
    },
    forget,
  }
}
