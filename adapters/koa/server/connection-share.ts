import type { IncomingMessage } from 'node:http'
import type { Socket } from 'node:net'
import { budgetKeyOf } from '../request/address-budget.js'
import { unmapIpv4 } from '../request/client-address.js'
import { responseOnSocket } from '../koa-internals.js'
import { dropConnection } from './in-flight.js'
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
 * carried with a valid key (the app says so through the listener's `markKeyed`); its holder is
 * that key, or the anonymous share without one. `waiting`: the bytes of answers counted as
 * waiting on it (in-flight.ts). The request whose body the tick watches, and since when.
 */
export type ConnectionState = {
  refused: boolean
  address: string | undefined
  key?: string | undefined
  pipeline?: Pipeline | undefined
  waiting: number
  watchedBody?: IncomingMessage | undefined
  watchedSince: number
}

type Holding = { weight: number; first: Socket; idle: Socket | undefined }

/**
 * The connection that gives way among those `among` accepts: one of the holder (a key, or the
 * anonymous share) with the most connections and requests carried out ahead, whatever they are
 * doing (on a tie, the anonymous share); of its own, the oldest idle one, else its oldest. A key
 * that holds less than another never gives way to it, however fast the other opens connections.
 */
const connectionToClose = (
  open: Map<Socket, ConnectionState>,
  among: (state: ConnectionState) => boolean,
): Socket | undefined => {
  const holdings = new Map<string | undefined, Holding>()
  let most: Holding | undefined
  for (const [socket, state] of open) {
    if (state.refused || !among(state)) continue
    let h = holdings.get(state.key)
    if (h === undefined)
      holdings.set(state.key, (h = { weight: 0, first: socket, idle: undefined }))
    h.weight += 1 + (state.pipeline?.ahead.length ?? 0)
    if (h.idle === undefined && responseOnSocket(socket) == null) h.idle = socket
    // On a tie the anonymous share gives way first: a key has shown it is a client of the API.
    if (
      most === undefined ||
      h.weight > most.weight ||
      (h.weight === most.weight && state.key === undefined)
    )
      most = h
  }
  return most?.idle ?? most?.first
}

/**
 * Admits new connections into `open` (oldest first) under the cap `max` and the share, closing
 * one that gives way when a limit is reached; a newcomer for whom none does is refused.
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
  /** Closes one that gives way among `among`; whether there was one. */
  const close = (among: (state: ConnectionState) => boolean = () => true): boolean => {
    const chosen = connectionToClose(open, among)
    if (chosen !== undefined) dropConnection(chosen)
    if (chosen !== undefined) forget(chosen)
    return chosen !== undefined
  }
  const makeRoom = (address: string | undefined): boolean => {
    if (address !== undefined && (perAddress.get(address) ?? 0) >= maxPerAddress)
      if (!close((state) => state.address === address)) return false
    if (open.size >= maxAnonymous) {
      let anonymous = 0
      for (const state of open.values()) if (state.key === undefined && !state.refused) anonymous++
      if (anonymous >= maxAnonymous) close((state) => state.key === undefined)
    }
    return open.size < max || close()
  }
  return {
    /** The newcomer's state: refused when no room could be made. */
    admit: (socket: Socket): ConnectionState => {
      const peer = socket.remoteAddress ?? ''
      const address =
        maxPerAddress === Infinity || isProxy(peer) ? undefined : budgetKeyOf(unmapIpv4(peer))
      const refused = !makeRoom(address)
      if (!refused) count(address, 1)
      return { refused, address, waiting: 0, watchedSince: 0 }
    },
    forget,
  }
}
