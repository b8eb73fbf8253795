import * as E from 'fp-ts/lib/Either.js'
import { INT64_MAX, invalidInput, NewPet, type InvalidInput } from '../../../../core/index.js'
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

/** The int64 fields a create's body has: those of NewPet. */
const NEW_PET_KEYS: ReadonlyArray<string> = [...NewPet.keys.required, ...NewPet.keys.optional]
const BODY_INT64_FIELDS = INT64_FIELDS.filter((field) => NEW_PET_KEYS.includes(field))

/**
 * A body sent in the string form, with each int64 field made the exact integer the core's codecs
 * read; a field that is not such a string (a number included) is refused, naming it.
 */
export const fromInt64Strings = (body: unknown): E.Either<InvalidInput, unknown> => {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return E.right(body)
  const converted: Record<string, unknown> = { ...body }
  const faults: string[] = []
  for (const field of BODY_INT64_FIELDS) {
    if (!Object.hasOwn(converted, field)) continue
    const value = converted[field]
    if (typeof value === 'string' && INT64_DECIMAL.test(value)) converted[field] = BigInt(value)
    else
      faults.push(
        `${field} must be a string of the digits of an integer from 1 to ${INT64_MAX} (no sign, no leading zero) in the int64=string form`,
      )
  }
  return faults.length === 0 ? E.right(converted) : E.left(invalidInput(faults))
}
