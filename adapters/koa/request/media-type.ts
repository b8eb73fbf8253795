/*
 * Media types as `Content-Type` and `Accept` carry them (RFC 9110 §8.3.1, §12.5.1), read in one
 * pass over the value, so a hostile value costs time in proportion to its length. The jshttp
 * parsers Koa ships fit neither: `content-type` refuses an empty parameter (`;;`), which the RFC
 * allows, and `negotiator` splits quoted commas and reads `q` with parseFloat.
 */

/** A media type (or range) in lower case, and its parameters: names in lower case, values unquoted. */
export type MediaType = {
  readonly type: string
  readonly parameters: ReadonlyArray<readonly [name: string, value: string]>
}

/** tchar (RFC 9110 §5.6.2): the characters of a token. */
const TCHAR = new Uint8Array(128)
for (const c of "!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
  TCHAR[c.charCodeAt(0)] = 1

const tokenEnd = (s: string, i: number): number => {
  while (i < s.length && TCHAR[s.charCodeAt(i)] === 1) i++
  return i
}
const spacesEnd = (s: string, i: number): number => {
  for (let c = s.charCodeAt(i); c === 32 || c === 9; c = s.charCodeAt(++i));
  return i
}
/** HTAB, SP, VCHAR and obs-text: what a quoted string may hold (a `"` or `\` only escaped). */
const isText = (c: number): boolean => c === 9 || (c >= 32 && c <= 255 && c !== 127)

/** The end of the quoted string that opens at `i` (RFC 9110 §5.6.4), or -1 when it is not one. */
const quotedEnd = (s: string, i: number): number => {
  for (i++; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (c === 34) return i + 1
    if (c === 92) i++
    if (!isText(s.charCodeAt(i))) return -1
  }
  return -1
}
const unquoted = (quoted: string): string => quoted.slice(1, -1).replace(/\\(.)/g, '$1')

/** `qvalue`: 0 to 1 with at most three decimals (RFC 9110 §12.4.2). */
const QVALUE = /^(?:0(?:\.[0-9]{0,3})?|1(?:\.0{0,3})?)$/

/**
 * The media type that starts at `i` and its parameters, and where it ends; undefined when the
 * text there is not one. In `Accept`, `q` must be a qvalue.
 */
const mediaTypeAt = (s: string, i: number, inAccept: boolean) => {
  const slash = tokenEnd(s, i)
  const end = s.charCodeAt(slash) === 47 ? tokenEnd(s, slash + 1) : slash
  if (slash === i || end === slash + 1 || end === slash) return undefined
  const parameters: Array<readonly [string, string]> = []
  let j = spacesEnd(s, end)
  while (s.charCodeAt(j) === 59) {
    j = spacesEnd(s, j + 1)
    const nameEnd = tokenEnd(s, j)
    if (nameEnd === j) continue // an empty parameter
    if (s.charCodeAt(nameEnd) !== 61) return undefined
    const quoted = s.charCodeAt(nameEnd + 1) === 34
    const valueEnd = quoted ? quotedEnd(s, nameEnd + 1) : tokenEnd(s, nameEnd + 1)
    if (valueEnd <= nameEnd + 1) return undefined
    const name = s.slice(j, nameEnd).toLowerCase()
    const raw = s.slice(nameEnd + 1, valueEnd)
    if (inAccept && name === 'q' && !QVALUE.test(raw)) return undefined
    parameters.push([name, quoted ? unquoted(raw) : raw])
    j = spacesEnd(s, valueEnd)
  }
  return { media: { type: s.slice(i, end).toLowerCase(), parameters }, end: j }
}

/** A `Content-Type`: exactly one media type; undefined when the value is not one. */
export const parseContentType = (value: string): MediaType | undefined => {
  const found = mediaTypeAt(value, spacesEnd(value, 0), false)
  return found?.end === value.length ? found.media : undefined
}

/** The media ranges of an `Accept` (empty list elements allowed); undefined when not valid. */
export const parseAccept = (value: string): MediaType[] | undefined => {
  const ranges: MediaType[] = []
  for (let i = 0; ; i++) {
    i = spacesEnd(value, i)
    if (i >= value.length) return ranges
    if (value.charCodeAt(i) === 44) continue
    const found = mediaTypeAt(value, i, true)
    if (found === undefined) return undefined
    ranges.push(found.media)
    i = found.end
    if (i < value.length && value.charCodeAt(i) !== 44) return undefined
  }
}

/** The value of the parameter `name` (in lower case), the last one given. */
export const parameterOf = (media: MediaType, name: string): string | undefined => {
  let value: string | undefined
  for (const [given, its] of media.parameters) if (given === name) value = its
  return value
}
