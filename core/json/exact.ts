import { parse } from 'lossless-json'
import { parseJsonNumber } from './number.js'
import { scanJson } from './scan.js'

/** Every number of a JSON.parse result as a bigint: what lossless-json gives for such a text. */
const withBigInts = (value: unknown): unknown => {
  if (typeof value === 'number') return BigInt(value)
  if (Array.isArray(value)) return value.map(withBigInts)
  if (value === null || typeof value !== 'object') return value
  const object = value as Record<string, unknown>
  for (const key of Object.keys(object)) {
    const field = object[key]
    if (typeof field !== 'number' && (field === null || typeof field !== 'object')) continue
    const exact = withBigInts(field)
    // An own "__proto__" key must stay a key: assigned, it would set the prototype. Defining is
    // slow (about 1 µs of a create's 2.6 µs parse when every key was defined), so only that key.
    if (key === '__proto__')
      Object.defineProperty(object, key, {
        value: exact,
        enumerable: true,
        writable: true,
        configurable: true,
      })
    else object[key] = exact
  }
  return object
}

/** JSON.parse's result, or the marker when the text is not JSON to it. */
const NOT_JSON = Symbol('not JSON')
const nativeParse = (text: string): unknown => {
  try {
    return JSON.parse(text) as unknown
  } catch {
    return NOT_JSON
  }
}

/**
 * The value of a JSON text with every integer an exact bigint, or its first repeated key.
 * The native parser where a double holds every number exactly (json-scan.ts), lossless-json
 * otherwise; a text the native parser refuses goes to lossless-json, whose SyntaxError names the
 * fault.
 */
export const parseExactly = (
  text: string,
): { value: unknown; duplicateKey: string | undefined } => {
  const losslessValue = (): unknown => parse(text, null, parseJsonNumber)
  const native = nativeParse(text)
  // Throws, unless lossless-json accepts what JSON.parse did not: then its value stands.
  const value = native === NOT_JSON ? losslessValue() : native
  // Only now, with the text known to be JSON: the scan assumes valid JSON.
  const { duplicateKey, exactAsDoubles } = scanJson(text)
  if (duplicateKey !== undefined) return { value: undefined, duplicateKey }
  if (native === NOT_JSON) return { value, duplicateKey }
  return { value: exactAsDoubles ? withBigInts(native) : losslessValue(), duplicateKey }
}
