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
const DIGIT_0 = 0x30
const DIGIT_9 = 0x39

type Frame = { readonly keys: Set<string> | undefined; expectKey: boolean }

/** The end index (exclusive) of the string literal starting at `start` (a `"`). */
const stringEnd = (text: string, start: number): number => {
  let i = start + 1
  for (let ch = text.charCodeAt(i); ch !== QUOTE; ch = text.charCodeAt(i))
    i += ch === BACKSLASH ? 2 : 1
  return i + 1
}

const isDigit = (ch: number): boolean => ch >= DIGIT_0 && ch <= DIGIT_9

/** Where the number literal at `start` ends, and whether it is a short plain integer. */
const numberEnd = (text: string, start: number): { end: number; plain: boolean } => {
  let i = text.charCodeAt(start) === MINUS ? start + 1 : start
  const digitsStart = i
  while (isDigit(text.charCodeAt(i))) i++
  const digits = i - digitsStart
  let end = i
  // A fraction or an exponent: skip to the literal's end (text that parsed as JSON).
  while (end < text.length && /[0-9.eE+-]/.test(text[end] ?? '')) end++
  return { end, plain: end === i && digits <= MAX_EXACT_DIGITS }
}

/** Scans a valid JSON text (one that JSON.parse or lossless-json accepted). */
export const scanJson = (text: string): JsonScan => {
  const stack: Frame[] = []
  let exactAsDoubles = true
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]
    const top = stack[stack.length - 1]
    if (ch === '"') {
      const end = stringEnd(text, i)
      if (top?.keys !== undefined && top.expectKey) {
        const literal = text.slice(i, end)
        // Without a backslash a key is its characters as written; only escapes need decoding.
        const key = literal.includes('\\') ? (JSON.parse(literal) as string) : literal.slice(1, -1)
        if (top.keys.has(key)) return { duplicateKey: key, exactAsDoubles }
        top.keys.add(key)
        top.expectKey = false
      }
      i = end - 1
    } else if (ch === '{' || ch === '[') {
      stack.push({ keys: ch === '{' ? new Set() : undefined, expectKey: ch === '{' })
      if (stack.length > MAX_DEPTH) exactAsDoubles = false
    } else if (ch === '}' || ch === ']') stack.pop()
    else if (ch === ',' && top?.keys !== undefined) top.expectKey = true
    else if (ch === '-' || isDigit(text.charCodeAt(i))) {
      const { end, plain } = numberEnd(text, i)
      if (!plain) exactAsDoubles = false
      i = end - 1
    }
  }
  return { duplicateKey: undefined, exactAsDoubles }
}
