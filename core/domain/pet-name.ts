import * as t from 'io-ts'

/** A name has at most this many code points. */
export const PET_NAME_MAX_LENGTH = 200

/*
 * The rules are written as explicit character classes rather than \s so that every JSON Schema
 * implementation (ECMA-262, Python re, ...) reads them the same way as this code does.
 * Control characters are refused: they are never part of a display name, and NUL cannot be
 * stored by every backend.
 */
export const PET_NAME_WHITESPACE =
  '\\u0009-\\u000d\\u0020\\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff'
const CONTROL = '\\u0000-\\u001f\\u007f-\\u009f'
/** The JSON Schema pattern of a name: no control characters and at least one visible character. */
export const PET_NAME_PATTERN = `^[^${CONTROL}]*[^${CONTROL}${PET_NAME_WHITESPACE}][^${CONTROL}]*$`
const pattern = new RegExp(PET_NAME_PATTERN, 'u')
/** In 'u' mode a surrogate pair is one code point, so only a lone half matches. */
const LONE_SURROGATE = /[\uD800-\uDFFF]/u

/** Marks a string as a checked {@link PetName}. */
export type PetNameBrand = { readonly PetName: unique symbol }
export type PetName = t.Branded<string, PetNameBrand>

/** Length in Unicode code points, as JSON Schema's maxLength counts it. */
const codePoints = (s: string): number => {
  let n = s.length
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (c >= 0xdc00 && c <= 0xdfff) n-- // the second half of a pair (the string is well-formed)
  }
  return n
}

const problemOf = (u: unknown): string | undefined => {
  if (typeof u !== 'string') return 'must be a string'
  if (LONE_SURROGATE.test(u)) return 'must be valid Unicode (no lone surrogates)'
  const length = codePoints(u)
  if (length > PET_NAME_MAX_LENGTH)
    return `must be at most ${PET_NAME_MAX_LENGTH} characters long (got ${length})`
  if (!pattern.test(u)) return 'must not be blank and must not contain control characters'
  return undefined
}

/** A display name: 1 to 200 characters, not blank, no control characters. Stored exactly as given. */
export const PetName = new t.Type<PetName, string, unknown>(
  'PetName',
  (u): u is PetName => problemOf(u) === undefined,
  (u, c) => {
    const problem = problemOf(u)
    return problem === undefined ? t.success(u as PetName) : t.failure(u, c, problem)
  },
  (s) => s,
)
