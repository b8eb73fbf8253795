import { LosslessNumber } from 'lossless-json'

/** JSON's number grammar, split into sign, integer digits, fraction digits and exponent. */
const NUMBER = /^(-?)([0-9]+)(?:\.([0-9]+))?(?:[eE]([+-]?[0-9]+))?$/

/**
 * Beyond this many significant digits a value is far outside int64 (19 digits), so it is left
 * unconverted rather than expanded: `1e999999999` must cost nothing.
 */
const MAX_DIGITS = 40
/** The common case, converted directly: a plain integer literal short enough to be cheap. */
const PLAIN_INTEGER = /^-?[0-9]{1,40}$/

/**
 * The exact integer a JSON number literal denotes, or undefined when it is not an integer.
 * `1.0`, `1e3` and `9.223372036854775807e18` are integers, as JSON Schema counts them; the
 * value is computed with bigint arithmetic on the digits, never through a float.
 */
export const integerOf = (literal: string): bigint | undefined => {
  const parts = NUMBER.exec(literal)
  if (parts === null) return undefined
  const [, sign = '', whole = '', fraction = '', exponentText = '0'] = parts
  const digits = (whole + fraction).replace(/^0+/, '')
  if (digits === '') return 0n
  const exponent = Number(exponentText) - fraction.length
  const significant = digits.replace(/0+$/, '')
  const shift = exponent + (digits.length - significant.length)
  if (shift < 0) return undefined // a non-zero digit stands after the decimal point
  if (significant.length + shift > MAX_DIGITS) return undefined
  const magnitude = BigInt(significant) * 10n ** BigInt(shift)
  return sign === '-' ? -magnitude : magnitude
}

/**
 * The reviver for lossless-json: every integer-valued literal becomes an exact bigint. Any other
 * number (1.5, 1e-3) stays a LosslessNumber, which no codec accepts as an identifier: the core
 * refuses it rather than see a silently rounded value.
 */
export const parseJsonNumber = (literal: string): unknown =>
  PLAIN_INTEGER.test(literal)
    ? BigInt(literal)
    : (integerOf(literal) ?? new LosslessNumber(literal))
