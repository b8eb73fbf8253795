/*
 * The string form: every int64 field a JSON string of its decimal digits, as the proto3 JSON
 * mapping writes int64, for clients whose JSON parser reads numbers as doubles (and rounds them
 * above 2^53). A request asks for it with a parameter of its media type, in each direction
 * apart: `Content-Type` for the body it sends, `Accept` for the answer it reads.
 */

/** The media type of the string form. */
export const INT64_STRING_TYPE = 'application/json; int64=string'

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
