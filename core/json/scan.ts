/*
 * One pass over a JSON text that already parsed, following only strings, nesting and numbers.
 *
 * - Repeated keys: lossless-json refuses a repeated key only when the two values differ, and
 *   JSON.parse keeps the last one silently. The README says any duplicate key is 400.
 * - Numbers: JSON.parse is exact for an integer of at most 15 digits written plainly (no
 *   fraction, no exponent). When every number is one, its result, with the numbers made
 *   bigints, is what lossless-json gives, at a fraction of the cost (a create's body parse was
 *   6% of its CPU through lossless-json).
 */

export type JsonScan = {
  /** The first key that occurs twice in one object, if any. */
  readonly duplicateKey: string | undefined
  /** Every number is a plain integer of at most 15 digits, and nesting is at most MAX_DEPTH. */
  readonly exactAsDoubles: boolean
}

/** Deeper documents take the lossless path, which reports "nested too deeply" as before. */
export const MAX_DEPTH = 64
/** Any integer of this many digits is below 2^53, so a double holds it exactly. */
const MAX_EXACT_DIGITS = 15

const QUOTE = 0x22
const BACKSLASH = 0x5c
const MINUS = 0x2d
const PLUS = 0x2b
const DOT = 0x2e
const DIGIT_0 = 0x30
const DIGIT_9 = 0x39
const LOWER_E = 0x65
const UPPER_E = 0x45
const COMMA = 0x2c
const OPEN_OBJECT = 0x7b
const CLOSE_OBJECT = 0x7d
const OPEN_ARRAY = 0x5b
const CLOSE_ARRAY = 0x5d

/** The end index (exclusive) of the string literal starting at `start` (a `"`). */
const stringEnd = (text: string, start: number): number => {
  let i = start + 1
  for (let ch = text.charCodeAt(i); ch !== QUOTE; ch = text.charCodeAt(i))
    i += ch === BACKSLASH ? 2 : 1
  return i + 1
}

const isDigit = (ch: number): boolean => ch >= DIGIT_0 && ch <= DIGIT_9
/** A character of a number literal past its integer part: fraction or exponent. */
const isNumberTail = (ch: number): boolean =>
  isDigit(ch) || ch === DOT || ch === LOWER_E || ch === UPPER_E || ch === PLUS || ch === MINUS

/** The key a string literal spells: without a backslash, its characters as written. */
const keyOf = (text: string, start: number, end: number): string => {
  const raw = text.slice(start + 1, end - 1)
  return raw.includes('\\') ? (JSON.parse(text.slice(start, end)) as string) : raw
}

/** Scans a valid JSON text (one that JSON.parse or lossless-json accepted). */
export const scanJson = (text: string): JsonScan => {
  // The keys seen in each open object, innermost last; `undefined` for an open array. Char codes
  // and no object per step: this runs on every create (it cost more than JSON.parse when it
  // compared one-character strings).
  const open: Array<Set<string> | undefined> = []
  let expectKey = false
  let exactAsDoubles = true
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i)
    if (ch === QUOTE) {
      const end = stringEnd(text, i)
      if (expectKey) {
        const key = keyOf(text, i, end)
        const keys = open[open.length - 1] as Set<string>
        if (keys.has(key)) return { duplicateKey: key, exactAsDoubles }
        keys.add(key)
        expectKey = false
      }
      i = end - 1
    } else if (ch === OPEN_OBJECT || ch === OPEN_ARRAY) {
      expectKey = ch === OPEN_OBJECT
      open.push(expectKey ? new Set() : undefined)
      if (open.length > MAX_DEPTH) exactAsDoubles = false
    } else if (ch === CLOSE_OBJECT || ch === CLOSE_ARRAY) {
      open.pop()
      expectKey = false
    } else if (ch === COMMA) expectKey = open[open.length - 1] !== undefined
    else if (ch === MINUS || isDigit(ch)) {
      let digitsEnd = ch === MINUS ? i + 1 : i
      const digitsStart = digitsEnd
      while (isDigit(text.charCodeAt(digitsEnd))) digitsEnd++
      let end = digitsEnd
      while (isNumberTail(text.charCodeAt(end))) end++
      // A fraction, an exponent or too many digits: a double may not hold it exactly.
      if (end !== digitsEnd || digitsEnd - digitsStart > MAX_EXACT_DIGITS) exactAsDoubles = false
      i = end - 1
    }
  }
  return { duplicateKey: undefined, exactAsDoubles }
}
