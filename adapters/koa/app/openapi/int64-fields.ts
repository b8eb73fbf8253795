import { ID_MAX_DIGITS, INT64_MAX } from '../../../../core/index.js'
import { INT64_STRING_TYPE } from '../../request/int64-form.js'
import { INT64_DECIMAL_PATTERN } from '../json/int64-form.js'

/** What every int64 field says of precision: a generated client is where rounding goes unseen. */
export const INT64_NOTE = `Above 2^53 (9007199254740992) a JSON parser that reads numbers as doubles rounds this value: read and write it with a parser that keeps integers exact, or use the string form (\`${INT64_STRING_TYPE}\`), in which it is a string of its digits.`

/** The string form of each int64 field below, by the field's schema. */
const stringForms = new Map<object, object>()

/** int64 bounds are bigints so that the document states 9223372036854775807 exactly. */
export const positiveInt64 = (description: string, asNumber = ''): object => {
  const field = {
    type: 'integer',
    format: 'int64',
    minimum: 1n,
    maximum: INT64_MAX,
    description: `${description}${asNumber} ${INT64_NOTE}`,
  }
  stringForms.set(field, {
    type: 'string',
    format: 'int64',
    pattern: INT64_DECIMAL_PATTERN,
    description: `${description} In the string form: its digits, from 1 to ${INT64_MAX}, no sign, no leading zero.`,
  })
  return field
}

/** A field of the string form: an int64 is a string of its digits, any other field as it is. */
export const inStringForm = (field: object): object => stringForms.get(field) ?? field

/**
 * An int64 in a path or query: a URL carries text, so the schema is a string of digits, which a
 * generated client types as `string` and never rounds (a `number` parameter rounds past 2^53).
 * Exactly what the service reads: digits, leading zeros allowed, 1 to 2^63-1.
 */
export const int64Text = (description: string): object => ({
  type: 'string',
  format: 'int64',
  pattern: `^0*${INT64_DECIMAL_PATTERN.slice(1)}`,
  maxLength: ID_MAX_DIGITS,
  description: `${description} A string of its digits, so that no client rounds it past 2^53.`,
})
