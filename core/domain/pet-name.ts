import * as t from 'io-ts'
import { COMBINING_MARK_RANGES } from './combining-marks.js'

/** A name has at most this many code points. */
export const PET_NAME_MAX_LENGTH = 200

/*
 * The rules are written as explicit character classes rather than \s or \p{...} so that every
 * JSON Schema implementation (ECMA-262 with the u flag, Python re, ...) reads them the same way
 * as this code does; characters beyond U+FFFF are written as themselves, since the escapes for
 * them differ between those. Control characters are refused: they are never part of a display
 * name, and NUL cannot be stored by every backend.
 */
export const PET_NAME_WHITESPACE =
  '\\u0009-\\u000d\\u0020\\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff'
const CONTROL = '\\u0000-\\u001f\\u007f-\\u009f'
/** Bidirectional embeddings, overrides and isolates: they can make a name read as another. */
export const PET_NAME_BIDI_CONTROLS = '\\u202a-\\u202e\\u2066-\\u2069'
/** A character of a class: `\uXXXX` in the BMP; beyond it, itself (module comment). */
const classChar = (cp: number) =>
  cp > 0xffff ? String.fromCodePoint(cp) : `\\u${cp.toString(16).padStart(4, '0')}`
const range = (from: number, to: number) =>
  from === to ? classChar(from) : `${classChar(from)}-${classChar(to)}`
/**
 * Characters that show nothing by themselves: Unicode's Default_Ignorable_Code_Point, assigned or
 * not (format characters such as U+200B, the Hangul fillers, variation selectors, tag characters,
 * the combining grapheme joiner, and the code points kept for more of them: U+2065, U+FFF0 to
 * U+FFF8, U+E0000 to U+E0FFF), plus the blank braille pattern (U+2800) and the interlinear
 * annotation characters (U+FFF9 to U+FFFB). A name needs one character outside these, the
 * whitespace and the combining marks.
 */
export const PET_NAME_INVISIBLE =
  '\\u00ad\\u034f\\u061c\\u115f\\u1160\\u17b4\\u17b5\\u180b-\\u180f\\u200b-\\u200f\\u2060-\\u2065' +
  '\\u206a-\\u206f\\u2800\\u3164\\ufe00-\\ufe0f\\uffa0\\ufff0-\\ufffb' +
  [range(0x1bca0, 0x1bca3), range(0x1d173, 0x1d17a), range(0xe0000, 0xe0fff)].join('')
/** Combining marks (Unicode's M): alone, they decorate nothing. */
const MARKS = COMBINING_MARK_RANGES.flatMap((from, i) =>
  i % 2 === 0 ? [range(from, COMBINING_MARK_RANGES[i + 1] as number)] : [],
).join('')
const ANYWHERE = `[^${CONTROL}${PET_NAME_BIDI_CONTROLS}]*`
/** The JSON Schema pattern of a name: no control characters, no bidirectional controls, and at least one visible character. */
export const PET_NAME_PATTERN = `^${ANYWHERE}[^${CONTROL}${PET_NAME_BIDI_CONTROLS}${PET_NAME_WHITESPACE}${PET_NAME_INVISIBLE}${MARKS}]${ANYWHERE}$`
const pattern = new RegExp(PET_NAME_PATTERN, 'u')
const control = new RegExp(`[${CONTROL}]`, 'u')
const bidi = new RegExp(`[${PET_NAME_BIDI_CONTROLS}]`, 'u')
/** The rule for names, as the 400 and the OpenAPI description state it. */
export const PET_NAME_RULES = {
  control: 'must not contain control characters (U+0000 to U+001F, U+007F to U+009F)',
  bidi: 'must not contain bidirectional controls (U+202A to U+202E, U+2066 to U+2069)',
  blank:
    'must not be blank: it needs a visible character, not only whitespace, format or other default-ignorable characters (such as U+200B), fillers (such as U+3164), blank braille patterns (U+2800) or combining marks (such as U+0301)',
} as const
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
  if (pattern.test(u)) return undefined
  if (control.test(u)) return PET_NAME_RULES.control
  return bidi.test(u) ? PET_NAME_RULES.bidi : PET_NAME_RULES.blank
}

/**
 * A display name: 1 to {@link PET_NAME_MAX_LENGTH} characters, something visible, no control or
 * bidirectional characters. Stored exactly as given.
 */
export const PetName = new t.Type<PetName, string, unknown>(
  'PetName',
  (u): u is PetName => problemOf(u) === undefined,
  (u, c) => {
    const problem = problemOf(u)
    return problem === undefined ? t.success(u as PetName) : t.failure(u, c, problem)
  },
  (s) => s,
)

/**
 * A name as a store holds it: accepted by the rules in force when it was written, which may be
 * looser or stricter than {@link PetName}'s today, so any non-empty string is served as stored.
 */
export const StoredPetName = new t.Type<PetName, string, unknown>(
  'StoredPetName',
  (u): u is PetName => typeof u === 'string' && u.length > 0,
  (u, c) =>
    typeof u === 'string' && u.length > 0
      ? t.success(u as PetName)
      : t.failure(u, c, 'must be a non-empty string'),
  (s) => s,
)
