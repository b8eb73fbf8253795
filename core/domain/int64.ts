import * as t from 'io-ts'

/** Largest signed 64-bit integer: identifiers live in 1..INT64_MAX. */
export const INT64_MAX = 9223372036854775807n

/** An exact positive signed 64-bit integer, held as a bigint so no digit is ever rounded. */
export type PositiveInt64<B> = t.Branded<bigint, B>

const RANGE = `an integer from 1 to ${INT64_MAX}`
/** In a path or query: digits only; leading zeros are allowed (`007` is 7), up to a sane length. */
export const ID_MAX_DIGITS = 40
const DIGITS = new RegExp(`^[0-9]{1,${ID_MAX_DIGITS}}$`)

const inRange = (n: bigint): boolean => n >= 1n && n <= INT64_MAX

/** bigint, or a number only while it is exact: above 2^53 a number has already been rounded. */
const fromNumeric = (u: unknown): bigint | undefined => {
  if (typeof u === 'bigint') return u
  if (typeof u === 'number' && Number.isSafeInteger(u)) return BigInt(u)
  return undefined
}

/** Why a whole number past 2^53-1 is refused, and what to send instead: it may be rounded already. */
const UNSAFE_NUMBER =
  'given exactly: a number above 2^53-1 (Number.MAX_SAFE_INTEGER) may already be rounded, so pass a bigint (9007199254740993n), or parse the JSON with exact integers (readJson)'

const isUnsafeInteger = (u: unknown): boolean =>
  typeof u === 'number' && Number.isInteger(u) && u > Number.MAX_SAFE_INTEGER

const positiveInt64 =
  (parse: (u: unknown) => bigint | undefined, rule: string) =>
  <B>(name: string) =>
    new t.Type<PositiveInt64<B>, bigint, unknown>(
      name,
      (u): u is PositiveInt64<B> => typeof u === 'bigint' && inRange(u),
      (u, c) => {
        const n = parse(u)
        if (n !== undefined && inRange(n)) return t.success(n as PositiveInt64<B>)
        return t.failure(u, c, `must be ${rule}${isUnsafeInteger(u) ? `, ${UNSAFE_NUMBER}` : ''}`)
      },
      (n) => n,
    )

/**
 * A codec for one kind of identifier in a JSON body: a bigint or an exact integer number;
 * strings are refused. Each kind has its own brand, so a PetId is never taken for a CategoryId.
 */
export const positiveInt64FromNumber = positiveInt64(fromNumeric, RANGE)

/** The same from a path or query parameter: digits only, or a bigint / exact integer. */
export const positiveInt64FromParam = positiveInt64(
  (u) => (typeof u === 'string' ? (DIGITS.test(u) ? BigInt(u) : undefined) : fromNumeric(u)),
  `${RANGE}, digits only, at most ${ID_MAX_DIGITS} of them`,
)
