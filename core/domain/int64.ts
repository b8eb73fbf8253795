import * as t from 'io-ts'

/** Largest signed 64-bit integer: identifiers live in 1..INT64_MAX. */
export const INT64_MAX = 9223372036854775807n

export type PositiveInt64Brand = { readonly PositiveInt64: unique symbol }
/** An exact positive signed 64-bit integer, held as a bigint so no digit is ever rounded. */
export type PositiveInt64 = t.Branded<bigint, PositiveInt64Brand>

const RANGE = `an integer from 1 to ${INT64_MAX}`
const DIGITS = /^[0-9]{1,40}$/

const inRange = (n: bigint): n is PositiveInt64 => n >= 1n && n <= INT64_MAX

/** bigint, or a number only while it is exact: above 2^53 a number has already been rounded. */
const fromNumeric = (u: unknown): bigint | undefined => {
  if (typeof u === 'bigint') return u
  if (typeof u === 'number' && Number.isSafeInteger(u)) return BigInt(u)
  return undefined
}

const positiveInt64 = (name: string, parse: (u: unknown) => bigint | undefined, rule: string) =>
  new t.Type<PositiveInt64, bigint, unknown>(
    name,
    (u): u is PositiveInt64 => typeof u === 'bigint' && inRange(u),
    (u, c) => {
      const n = parse(u)
      return n !== undefined && inRange(n) ? t.success(n) : t.failure(u, c, `must be ${rule}`)
    },
    (n) => n,
  )

/** A JSON body field: a bigint or an exact integer number; strings are refused. */
export const PositiveInt64FromNumber = positiveInt64('PositiveInt64', fromNumeric, RANGE)

/** A path or query parameter: digits only, or a bigint / exact integer from an embedding program. */
export const PositiveInt64FromParam = positiveInt64(
  'PositiveInt64Param',
  (u) => (typeof u === 'string' ? (DIGITS.test(u) ? BigInt(u) : undefined) : fromNumeric(u)),
  `${RANGE}, digits only`,
)
