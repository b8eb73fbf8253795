import type Koa from 'koa'
import type { IncomingMessage } from 'node:http'
import { BlockList, isIP } from 'node:net'
import type { AppState } from './app-state.js'
import { forwardedFor } from './forwarded.js'

/**
 * Which proxies in front of the service are trusted to say who the client is: a count of hops
 * (every proxy on the path, the nearest first), or their addresses and networks (`10.0.0.0/8`).
 * Absent, the peer of the connection is the client and forwarding headers are ignored.
 */
export type TrustProxy = { readonly hops: number } | { readonly addresses: ReadonlyArray<string> }

/** `::ffff:192.0.2.1` is how Node shows an IPv4 peer on a dual-stack socket. */
export const unmapIpv4 = (address: string): string =>
  address.startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address

const blockListOf = (entries: ReadonlyArray<string>): BlockList => {
  const list = new BlockList()
  for (const entry of entries) {
    const [address = '', prefix] = entry.split('/')
    const type = isIP(address) === 6 ? 'ipv6' : 'ipv4'
    if (prefix === undefined) list.addAddress(address, type)
    else list.addSubnet(address, Number(prefix), type)
  }
  return list
}

/** Whether a TRUST_PROXY address entry is an address, or a network with a valid prefix length. */
export const isTrustedProxyEntry = (entry: string): boolean => {
  const [address = '', prefix, extra] = entry.split('/')
  const family = isIP(address)
  if (family === 0 || extra !== undefined) return false
  if (prefix === undefined) return true
  return /^[0-9]{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128)
}

export type ClientAddress = {
  /** The client's address for a request, by the forwarding headers of trusted proxies. */
  readonly of: (req: IncomingMessage) => string
  /** Whether a connection's peer is a trusted proxy (its connections carry many clients). */
  readonly isProxy: (peer: string) => boolean
}

/**
 * The client address of a request: the peer, then, while the hop that told us is trusted, the
 * address it reports (the `for=` of `Forwarded`, else `X-Forwarded-For`, read from the right).
 * An entry that is not an IP address (`unknown`, an obfuscated name) stops the walk at the hop
 * that sent it.
 */
export const clientAddress = (trust: TrustProxy | undefined): ClientAddress => {
  if (trust === undefined)
    return { of: (req) => unmapIpv4(req.socket.remoteAddress ?? ''), isProxy: () => false }
  const list = 'addresses' in trust ? blockListOf(trust.addresses) : undefined
  const trusted = (address: string, hop: number): boolean =>
    list === undefined
      ? hop < (trust as { hops: number }).hops
      : list.check(address, isIP(address) === 6 ? 'ipv6' : 'ipv4')
  const of = (req: IncomingMessage): string => {
    let client = unmapIpv4(req.socket?.remoteAddress ?? '')
    const hops = forwardedFor(req.headers)
    for (let hop = 0; hop < hops.length && trusted(client, hop); hop++) {
      const next = unmapIpv4(hops[hops.length - 1 - hop] as string)
      if (isIP(next) === 0) break
      client = next
    }
    return client
  }
  return { of, isProxy: (peer) => trusted(unmapIpv4(peer), 0) }
}

type RequestWithContext = {
  readonly req: IncomingMessage
  readonly ctx: { readonly state: AppState }
}

/**
 * `ctx.ip` (and `ctx.request.ip`) becomes the client address by these rules, worked out when
 * first read and kept in the request's state: Koa's own `app.proxy` knows only a hop count of
 * `X-Forwarded-For`.
 */
export const useClientAddress = (app: Koa<never>, address: ClientAddress): void => {
  Object.defineProperty(app.request, 'ip', {
    configurable: true,
    get(this: RequestWithContext) {
      return (this.ctx.state.clientAddress ??= address.of(this.req))
    },
    set(this: RequestWithContext, value: string) {
      this.ctx.state.clientAddress = value
    },
  })
}
