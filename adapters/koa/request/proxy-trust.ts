import { isIP } from 'node:net'
import proxyaddr from 'proxy-addr'

/** The header a trusted proxy appends the client's address to; the other one is never read. */
export type ProxyHeader = 'x-forwarded-for' | 'forwarded'

/**
 * Which proxies in front of the service are trusted to say who the client is: a count of hops
 * (every proxy on the path, the nearest first), or their addresses and networks (`10.0.0.0/8`,
 * or `loopback`, `linklocal`, `uniquelocal`); and the header they write, `X-Forwarded-For` unless
 * `header` says `forwarded` (RFC 7239). Absent, the peer of the connection is the client and
 * forwarding headers are ignored.
 */
export type TrustProxy = (
  { readonly hops: number } | { readonly addresses: ReadonlyArray<string> }
) & {
  readonly header?: ProxyHeader | undefined
}

/** proxy-addr's names for ranges, which TRUST_PROXY accepts as entries. */
const RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal']

/** Whether a TRUST_PROXY address entry is an address, a network with a valid prefix, or a range name. */
export const isTrustedProxyEntry = (entry: string): boolean => {
  if (RANGE_NAMES.includes(entry)) return true
  const [address = '', prefix, extra] = entry.split('/')
  const family = isIP(address)
  if (family === 0 || extra !== undefined) return false
  if (prefix === undefined) return true
  return /^[0-9]{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128)
}

/** Whether the hop `hop` away (0: the peer), at a normalised `address`, is a trusted proxy. */
export type Trusted = (address: string, hop: number) => boolean

export const trustedOf = (trust: TrustProxy): Trusted => {
  if ('hops' in trust) {
    const { hops } = trust
    return (_, hop) => hop < hops
  }
  // proxy-addr matches an address against the list, IPv4-mapped IPv6 against IPv4 networks too.
  const listed = proxyaddr.compile([...trust.addresses])
  return (address, hop) => listed(address, hop)
}
