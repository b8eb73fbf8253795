import { isNamed, isQvalue, spacesEnd, tokenEnd } from './media-type.js'

/** A rule of `Accept-Encoding` that applies to a coding: its weight, whether it names it, where. */
type Rule = { q: number; exact: boolean; at: number }

/** Of two rules for one coding, the one that applies: naming it, then the higher weight, the later. */
const applies = (a: Rule | undefined, b: Rule): Rule =>
  a === undefined || (a.exact === b.exact ? b.q >= a.q : b.exact) ? b : a

const better = (a: Rule, b: Rule): boolean =>
  a.q !== b.q ? a.q > b.q : a.exact !== b.exact ? a.exact : a.at <= b.at

/**
 * Whether an `Accept-Encoding` (RFC 9110 §12.5.3) takes gzip before identity, as Koa's
 * `ctx.acceptsEncodings('gzip', 'identity')` answers (the higher weight, then the rule naming the
 * coding over `*`, then the earlier rule; identity unnamed weighs as the lowest rule given), in
 * one pass over the value. An item that is not `coding [; q=qvalue]` is left out.
 */
export const prefersGzip = (value: string): boolean => {
  let gzip: Rule | undefined
  let identity: Rule | undefined
  let lowest = 1
  for (let i = 0, at = 0; i < value.length; i++, at++) {
    i = spacesEnd(value, i)
    const end = tokenEnd(value, i)
    let j = spacesEnd(value, end)
    let q = 1
    if (value.charCodeAt(j) === 59) {
      const start = spacesEnd(value, j + 1)
      const qEnd = tokenEnd(value, start + 2)
      const named = (value.charCodeAt(start) | 0x20) === 113 && value.charCodeAt(start + 1) === 61
      q = named && isQvalue(value, start + 2, qEnd) ? Number(value.slice(start + 2, qEnd)) : -1
      j = spacesEnd(value, qEnd)
    }
    const valid = end > i && q >= 0 && (j === value.length || value.charCodeAt(j) === 44)
    const isAny = end === i + 1 && value.charCodeAt(i) === 42
    if (valid) lowest = Math.min(lowest, q)
    const exact = !isAny
    if (valid && (isAny || isNamed(value, i, end, 'gzip'))) gzip = applies(gzip, { q, exact, at })
    if (valid && (isAny || isNamed(value, i, end, 'identity')))
      identity = applies(identity, { q, exact, at })
    const comma = value.indexOf(',', j)
    if (comma === -1) break
    i = comma
  }
  if (gzip === undefined || gzip.q === 0) return false
  return better(gzip, identity ?? { q: lowest, exact: true, at: Infinity })
}
