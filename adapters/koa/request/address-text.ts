import { isIP } from 'node:net'

/** `[2001:db8::1]:4711`, `[2001:db8::1]`, `192.0.2.1:80`: the address without brackets or port. */
const withoutPort = (written: string): string => {
  const bracketed = /^\[([^\]]*)\](?::\d+)?$/.exec(written)
  if (bracketed !== null) return bracketed[1] as string
  const v4WithPort = /^(\d{1,3}(?:\.\d{1,3}){3}):\d+$/.exec(written)
  return v4WithPort === null ? written : (v4WithPort[1] as string)
}

const MAPPED_DOTTED = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i

/** The two last groups of `::ffff:c000:201` as the IPv4 address they carry, 192.0.2.1. */
const mappedIpv4 = (high: string, low: string): string => {
  const [h, l] = [parseInt(high, 16), parseInt(low, 16)]
  return `${h >> 8}.${h & 255}.${l >> 8}.${l & 255}`
}

/**
 * An address as a proxy wrote it, in the one spelling budgets and logs use: IPv4 as it is, IPv6
 * as RFC 5952 writes it (lower case, shortest), an IPv4-mapped IPv6 address as its IPv4 address
 * (`::FFFF:192.0.2.1` is 192.0.2.1), without port, brackets or zone id (a zone names an interface
 * of the proxy's host, not the client). Undefined when it is no IP address (`unknown`, `_hidden`).
 */
export const normalAddress = (written: string): string | undefined => {
  // The common spellings first, cheaply: IPv4, and IPv4-mapped as Node shows a dual-stack peer.
  if (isIP(written) === 4) return written
  const dotted = MAPPED_DOTTED.exec(written)?.[1]
  if (dotted !== undefined && isIP(dotted) === 4) return dotted
  const address = withoutPort(written.trim())
  const family = isIP(address)
  if (family === 4) return address
  if (family !== 6) return undefined
  const zoneless = address.replace(/%.*$/, '')
  // The URL parser writes an IPv6 host in RFC 5952's form.
  const canonical = new URL(`http://[${zoneless}]`).hostname.slice(1, -1)
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(canonical)
  return mapped === null ? canonical : mappedIpv4(mapped[1] as string, mapped[2] as string)
}
