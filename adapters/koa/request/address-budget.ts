import { isIP } from 'node:net'

/** The eight 16-bit groups of an IPv6 address (a trailing dotted IPv4 counts as two). */
const groupsOf = (address: string): number[] => {
  const bare = address.split('%')[0] as string // a zone (`fe80::1%eth0`) is not part of it
  const [head = '', tail] = bare.split('::')
  const parse = (part: string): number[] =>
    part === ''
      ? []
      : part.split(':').flatMap((group) => {
          if (!group.includes('.')) return [parseInt(group, 16)]
          const [a = 0, b = 0, c = 0, d = 0] = group.split('.').map(Number)
          return [(a << 8) | b, (c << 8) | d]
        })
  const left = parse(head)
  const right = tail === undefined ? [] : parse(tail)
  return [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right]
}

/**
 * Whose budget a client address draws on: an IPv4 address is one client, an IPv6 one is its
 * /64 (one subscriber's network: a host there has 2^64 addresses to rotate through).
 */
export const budgetKeyOf = (address: string): string => {
  if (isIP(address) !== 6) return address
  const prefix = groupsOf(address)
    .slice(0, 4)
    .map((group) => group.toString(16))
  return `${prefix.join(':')}::/64`
}
