import * as E from 'fp-ts/lib/Either.js'
import { INT64_MAX, invalidInput, NewPet } from '../../../../core/index.js'
import { INT64_FIELDS } from '../../../../core/json/write.js'
import { setAnswer, setJsonAnswer } from '../answer.js'
import type { AppContext } from '../app-state.js'
import type { Problem } from '../problem.js'

/*
 * The string form: every int64 field a JSON string of its decimal digits, as the proto3 JSON
 * mapping writes int64, for clients whose JSON parser reads numbers as doubles (and rounds them
 * above 2^53). A request asks for it with a parameter of its media type, in each direction
 * apart: `Content-Type` for the body it sends, `Accept` for the answer it reads.
 */

/** The media type of the string form. */
export const INT64_STRING_TYPE = 'application/json; int64=string'

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

const TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]+"
const VALUE = `(?:${TOKEN}|"(?:[^"\\\\]|\\\\.)*")`
/** One media type or range with its parameters, as in `Content-Type` and each item of `Accept`. */
const MEDIA = new RegExp(`(${TOKEN}/${TOKEN})((?:[ \\t]*;[ \\t]*${TOKEN}=${VALUE})*)`, 'g')
const PARAMETER = new RegExp(`(${TOKEN})=(${VALUE})`, 'g')
const MENTIONS_INT64 = /int64/i

const unquoted = (value: string): string =>
  value.startsWith('"') ? value.slice(1, -1).replace(/\\(.)/g, '$1') : value

/** `application/json` with `int64=string`, not refused by `q=0`. */
const isStringForm = (type: string, parameters: string): boolean => {
  if (type.toLowerCase() !== 'application/json') return false
  let stringForm = false
  for (const [, name = '', value = ''] of parameters.matchAll(PARAMETER)) {
    const lower = name.toLowerCase()
    if (lower === 'q' && Number(unquoted(value)) === 0) return false
    if (lower === 'int64') stringForm = unquoted(value).toLowerCase() === 'string'
  }
  return stringForm
}

/**
 * Whether a `Content-Type` or `Accept` names the string form. Nearly every request names no
 * `int64` parameter at all: a regular expression test answers for it, with nothing allocated.
 */
export const namesInt64Strings = (header: string | undefined): boolean => {
  if (header === undefined || !MENTIONS_INT64.test(header)) return false
  for (const [, type = '', parameters = ''] of header.matchAll(MEDIA))
    if (isStringForm(type, parameters)) return true
  return false
}

/** The int64 fields a create's body has: those of NewPet. */
const NEW_PET_KEYS: ReadonlyArray<string> = [...NewPet.keys.required, ...NewPet.keys.optional]
const BODY_INT64_FIELDS = INT64_FIELDS.filter((field) => NEW_PET_KEYS.includes(field))

/**
 * A body sent in the string form, with each int64 field made the exact integer the core's codecs
 * read; a field that is not such a string (a number included) is refused, naming it.
 */
export const fromInt64Strings = (body: unknown): E.Either<Problem, unknown> => {
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

/**
 * Answers `value` in the form the request's `Accept` asks for: written by `plain` as
 * `application/json` (the default), or by `strings` in the string form.
 */
export const answerInForm = <A>(
  ctx: AppContext,
  status: number,
  value: A,
  plain: (value: A) => string,
  strings: (value: A) => string,
): void =>
  namesInt64Strings(ctx.req.headers.accept)
    ? setAnswer(ctx, status, INT64_STRING_TYPE, strings(value))
    : setJsonAnswer(ctx, status, plain(value))
