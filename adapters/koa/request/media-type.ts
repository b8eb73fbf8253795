/*
 * Media types as `Content-Type` and `Accept` carry them (RFC 9110 §8.3.1, §12.5.1), and codings
 * as `Accept-Encoding` does (§12.5.3), each read in one pass over the value, so a hostile value
 * costs time in proportion to its length. One module: a call across modules costs more in their
 * loops. The jshttp parsers Koa ships fit neither: `content-type` refuses an empty parameter
 * (`;;`), which the RFC allows, and `negotiator` splits quoted commas, reads `q` with
 * parseFloat, and allocates for every element of a list.
 */

/**
 * A media type (or range) in lower case, and the parameters asked for: names in lower case,
 * values unquoted. Only those are kept, so a value of many parameters allocates nothing for them.
 */
export type MediaType = {
  readonly type: string
  readonly parameters: ReadonlyArray<readonly [name: string, value: string]>
}

/** tchar (RFC 9110 §5.6.2): the characters of a token. */
const TCHAR = new Uint8Array(128)
for (const c of "!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
  TCHAR[c.charCodeAt(0)] = 1

/** The character code at `i`, -1 past the end (reading past it would slow the reader down). */
export const codeAt = (s: string, i: number): number => (i < s.length ? s.charCodeAt(i) : -1)

export const tokenEnd = (s: string, i: number): number => {
  for (let c = codeAt(s, i); c >= 0 && c < 128 && TCHAR[c] === 1; c = codeAt(s, ++i));
  return i
}
export const spacesEnd = (s: string, i: number): number => {
  for (let c = codeAt(s, i); c === 32 || c === 9; c = codeAt(s, ++i));
  return i
}
/** HTAB, SP, VCHAR and obs-text: what a quoted string may hold (a `"` or `\` only escaped). */
const isText = (c: number): boolean => c === 9 || (c >= 32 && c <= 255 && c !== 127)

/** The end of the quoted string that opens at `i` (RFC 9110 §5.6.4), or -1 when it is not one. */
const quotedEnd = (s: string, i: number): number => {
  for (i++; i < s.length; i++) {
    const c = codeAt(s, i)
    if (c === 34) return i + 1
    if (c === 92) i++
    if (!isText(codeAt(s, i))) return -1
  }
  return -1
}
const unquoted = (quoted: string): string => quoted.slice(1, -1).replace(/\\(.)/g, '$1')

/** Whether `s` from `start` to `end` is a `qvalue`: 0 to 1, at most three decimals (§12.4.2). */
export const isQvalue = (s: string, start: number, end: number): boolean => {
  const first = codeAt(s, start)
  if ((first !== 48 && first !== 49) || end - start > 5) return false
  if (end - start === 1) return true
  if (codeAt(s, start + 1) !== 46) return false
  for (let i = start + 2; i < end; i++) {
    const c = codeAt(s, i)
    if (c !== 48 && (first === 49 || c < 48 || c > 57)) return false
  }
  return true
}

/** Whether `s` from `start` to `end` is `name` (in lower case) in any case, without a copy. */
export const isNamed = (s: string, start: number, end: number, name: string): boolean => {
  if (end - start !== name.length) return false
  for (let i = 0; i < name.length; i++)
    if ((codeAt(s, start + i) | 0x20) !== (name.charCodeAt(i) | 0x20)) return false
  return true
}

/** What to keep of the media types read: their type (`*` for any) and the parameters named. */
export type Wanted = { readonly type: string; readonly names: ReadonlyArray<string> }

/** Which of `names` `s` from `start` to `end` is, in any case. */
const nameAmong = (s: string, start: number, end: number, names: ReadonlyArray<string>) => {
  for (const name of names) if (isNamed(s, start, end, name)) return name
  return undefined
}

/**
 * Reads the media type that starts at `i`, adds it to `into` when it is of the type wanted, and
 * tells where it ends; -1 when the text there is not one. In `Accept`, `q` must be a qvalue.
 */
const mediaTypeAt = (
  s: string,
  i: number,
  wanted: Wanted,
  inAccept: boolean,
  into: MediaType[],
): number => {
  const slash = tokenEnd(s, i)
  const end = codeAt(s, slash) === 47 ? tokenEnd(s, slash + 1) : slash
  if (slash === i || end === slash + 1 || end === slash) return -1
  const kept = wanted.type === '*' || isNamed(s, i, end, wanted.type)
  const parameters: Array<readonly [string, string]> | undefined = kept ? [] : undefined
  let j = spacesEnd(s, end)
  while (codeAt(s, j) === 59) {
    if (codeAt(s, ++j) === 59) continue // an empty parameter, the quick way
    j = spacesEnd(s, j)
    const nameEnd = tokenEnd(s, j)
    if (nameEnd === j) continue // an empty parameter
    if (codeAt(s, nameEnd) !== 61) return -1
    const quoted = codeAt(s, nameEnd + 1) === 34
    const valueEnd = quoted ? quotedEnd(s, nameEnd + 1) : tokenEnd(s, nameEnd + 1)
    if (valueEnd <= nameEnd + 1) return -1
    if (inAccept && isNamed(s, j, nameEnd, 'q') && !isQvalue(s, nameEnd + 1, valueEnd)) return -1
    const name = parameters && nameAmong(s, j, nameEnd, wanted.names)
    if (name !== undefined) {
      const raw = s.slice(nameEnd + 1, valueEnd)
      parameters?.push([name, quoted ? unquoted(raw) : raw])
    }
    j = spacesEnd(s, valueEnd)
  }
  if (parameters) into.push({ type: s.slice(i, end).toLowerCase(), parameters })
  return j
}

/**
 * A `Content-Type`: exactly one media type, with the parameters named in `names`; undefined when
 * the value is not one.
 */
export const parseContentType = (
  value: string,
  names: ReadonlyArray<string>,
): MediaType | undefined => {
  const into: MediaType[] = []
  const end = mediaTypeAt(value, spacesEnd(value, 0), { type: '*', names }, false, into)
  return end === value.length ? into[0] : undefined
}

/**
 * The media ranges of an `Accept` (empty list elements allowed) of the type wanted, with the
 * parameters it names; undefined when the value is not valid.
 */
export const parseAccept = (value: string, wanted: Wanted): MediaType[] | undefined => {
  const ranges: MediaType[] = []
  for (let i = 0; ; i++) {
    i = spacesEnd(value, i)
    if (i >= value.length) return ranges
    if (codeAt(value, i) === 44) continue
    i = mediaTypeAt(value, i, wanted, true, ranges)
    if (i === -1) return undefined
    if (i < value.length && codeAt(value, i) !== 44) return undefined
  }
}

/** The value of the parameter `name` (in lower case), the last one given. */
export const parameterOf = (media: MediaType, name: string): string | undefined => {
  let value: string | undefined
  for (const [given, its] of media.parameters) if (given === name) value = its
  return value
}

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
    if (codeAt(value, j) === 59) {
      const start = spacesEnd(value, j + 1)
      const qEnd = tokenEnd(value, start + 2)
      const named = (codeAt(value, start) | 0x20) === 113 && codeAt(value, start + 1) === 61
      q = named && isQvalue(value, start + 2, qEnd) ? Number(value.slice(start + 2, qEnd)) : -1
      j = spacesEnd(value, qEnd)
    }
    const valid = end > i && q >= 0 && (j === value.length || codeAt(value, j) === 44)
    const isAny = end === i + 1 && codeAt(value, i) === 42
    if (valid) lowest = Math.min(lowest, q)
    const exact = !isAny
    if (valid && (isAny || isNamed(value, i, end, 'gzip'))) gzip = applies(gzip, { q, exact, at })
    if (valid && (isAny || isNamed(value, i, end, 'identity')))
      identity = applies(identity, { q, exact, at })
    while (j < value.length && codeAt(value, j) !== 44) j++
    i = j
  }
  if (gzip === undefined || gzip.q === 0) return false
  return better(gzip, identity ?? { q: lowest, exact: true, at: Infinity })
}
