import * as E from 'fp-ts/lib/Either.js'
import * as t from 'io-ts'
import { decodeWith, INT64_MAX, NewPet, type InvalidInput } from '../../../../core/index.js'
import { NEW_PET_OPTIONAL, NEW_PET_REQUIRED } from '../../../../core/domain/new-pet.js'
import { strictStruct } from '../../../../core/domain/strict-struct.js'
import { INT64_FIELDS } from '../../../../core/json/write.js'

/*
 * A body in the string form (../../request/int64-form.ts): its int64 fields checked against
 * exactly the identifiers, then made the integers the core's codecs read.
 */

/** The digits of an integer from 1 to `max`, no sign, no leading zero: one alternative per digit. */
const decimalsUpTo = (max: bigint): string => {
  const digits = String(max)
  const below = digits.split('').flatMap((digit, i) => {
    const low = i === 0 ? 1 : 0
    const high = Number(digit) - 1
    if (high < low) return []
    const rest = digits.length - i - 1
    return [`${digits.slice(0, i)}[${low}-${high}]${rest > 0 ? `[0-9]{${rest}}` : ''}`]
  })
  return `^(?:[1-9][0-9]{0,${digits.length - 2}}|${[...below, digits].join('|')})$`
}

/** An int64 field in the string form: exactly the identifiers, 1 to 2^63-1, as JSON Schema sees it. */
export const INT64_DECIMAL_PATTERN = decimalsUpTo(INT64_MAX)
const INT64_DECIMAL = new RegExp(INT64_DECIMAL_PATTERN)

/** An int64 field in the string form, read as the exact integer the core's codecs take. */
const Int64String = new t.Type<bigint, string, unknown>(
  'Int64String',
  (u): u is bigint => typeof u === 'bigint',
  (u, c) =>
    typeof u === 'string' && INT64_DECIMAL.test(u)
      ? t.success(BigInt(u))
      : t.failure(
          u,
          c,
          `must be a string of the digits of an integer from 1 to ${INT64_MAX} (no sign, no leading zero) in the int64=string form`,
        ),
  String,
)

const isInt64Field = (key: string): boolean => (INT64_FIELDS as ReadonlyArray<string>).includes(key)

/** The codecs of a NewPet's fields, each int64 one read in the string form. */
const inStringForm = (codecs: Readonly<Record<string, t.Mixed>>): Record<string, t.Mixed> =>
  Object.fromEntries(
    Object.entries(codecs).map(([key, codec]) => [key, isInt64Field(key) ? Int64String : codec]),
  )

/** NewPet as the string form sends it: every other field checked, and worded, as in the plain form. */
const decodeNewPetInStringForm = decodeWith(
  strictStruct('NewPet', inStringForm(NEW_PET_REQUIRED), inStringForm(NEW_PET_OPTIONAL), 'field'),
  'body',
)

/** The int64 fields a create's body has: those of NewPet. */
const NEW_PET_KEYS: ReadonlyArray<string> = [...NewPet.keys.required, ...NewPet.keys.optional]
const BODY_INT64_FIELDS = NEW_PET_KEYS.filter(isInt64Field)

/**
 * A body sent in the string form, with each int64 field made the exact integer the core's codecs
 * read; a field that is not such a string (a number included) is refused, naming it.
 */
export const fromInt64Strings = (body: unknown): E.Either<InvalidInput, unknown> => {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return E.right(body)
  const converted: Record<string, unknown> = { ...body }
  for (const field of BODY_INT64_FIELDS) {
    if (!Object.hasOwn(converted, field)) continue
    const value = Int64String.decode(converted[field])
    // A bad one: the whole body is checked (and refused), so that the 400 names every problem
    // in the plain form's order; a good body is checked once, by the core.
    if (E.isLeft(value)) return decodeNewPetInStringForm(body)
    converted[field] = value.right
  }
  return E.right(converted)
}
