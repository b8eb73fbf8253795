import { expect } from 'chai'
import fc from 'fast-check'
import { isLeft, isRight } from 'fp-ts/lib/Either.js'
import {
  PET_NAME_MAX_LENGTH,
  PET_NAME_PATTERN,
  PET_NAME_RULES,
  PetName,
} from '../../../core/index.js'
import { invalidPetName, petName } from '../../../adapters/testing/arbitraries.js'

const span = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i)
const problemOf = (u: unknown): string | undefined => {
  const decoded = PetName.decode(u)
  return isLeft(decoded) ? decoded.left.map((e) => e.message).join('; ') : undefined
}
/** What a JSON Schema validator with the u flag decides from the OpenAPI document's schema. */
const schemaAccepts = (s: string) =>
  new RegExp(PET_NAME_PATTERN, 'u').test(s) &&
  [...s].length >= 1 &&
  [...s].length <= PET_NAME_MAX_LENGTH

describe('pet names: something to show', () => {
  it('refuses names with nothing visible, naming the rule', () => {
    for (const name of [
      '\u200b',
      '\u3164',
      '\u2800\u2800',
      ' \u200b\u00a0',
      '\ufe0f',
      '\u{e0041}\u{e0042}',
    ])
      expect(problemOf(name), JSON.stringify(name)).to.equal(PET_NAME_RULES.blank)
  })

  it('refuses names of default-ignorable code points, assigned or not, or of combining marks only', () => {
    const reserved = [0x2065, ...span(0xfff0, 0xfff8), 0xe0000, ...span(0xe0080, 0xe00ff)]
    for (const cp of [...reserved, ...span(0xe01f0, 0xe0fff)]) {
      const name = String.fromCodePoint(cp)
      expect(problemOf(name), `U+${cp.toString(16)}`).to.equal(PET_NAME_RULES.blank)
      expect(problemOf(`Rex${name}`), `Rex U+${cp.toString(16)}`).to.equal(undefined)
    }
    for (const name of ['\u0301', '\u0301\u0302', ' \u20dd', '\u0903', '\u{1d167}\u200b'])
      expect(problemOf(name), JSON.stringify(name)).to.equal(PET_NAME_RULES.blank)
    expect(problemOf('e\u0301'), 'a mark on a letter').to.equal(undefined)
    // The interlinear annotation characters, format characters that are not default-ignorable.
    for (const cp of span(0xfff9, 0xfffb)) {
      expect(problemOf(String.fromCodePoint(cp)), `U+${cp.toString(16)}`).to.equal(
        PET_NAME_RULES.blank,
      )
      expect(problemOf(`Rex${String.fromCodePoint(cp)}`)).to.equal(undefined)
    }
  })

  it("refuses, alone, every code point this Node's Unicode calls a mark or default-ignorable", () => {
    const nothingToShow = /^[\p{M}\p{Default_Ignorable_Code_Point}]$/u
    const accepted: string[] = []
    for (let cp = 0; cp <= 0x10ffff; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue
      const name = String.fromCodePoint(cp)
      if (nothingToShow.test(name) && problemOf(name) === undefined)
        accepted.push(`U+${cp.toString(16)}`)
    }
    // A newer Unicode with new marks: add them to core/domain/combining-marks.ts.
    expect(accepted).to.deep.equal([])
  })

  it('refuses bidirectional controls anywhere, naming the rule', () => {
    for (const name of ['\u202egnp.exe', 'Rex\u202a', 'a\u2066b\u2069', '\u202d\u202c'])
      expect(problemOf(name), JSON.stringify(name)).to.equal(PET_NAME_RULES.bidi)
  })

  it('takes invisible characters beside a visible one: a joiner in an emoji, a soft hyphen', () => {
    for (const name of ['👩\u200d👩\u200d👧', 'Fluffy\u00ad', '\u3164Rex', '❤\ufe0f'])
      expect(problemOf(name), JSON.stringify(name)).to.equal(undefined)
  })

  it('decodes every generated valid name, and refuses every generated invalid one', () => {
    fc.assert(fc.property(petName(), (name) => isRight(PetName.decode(name))))
    fc.assert(fc.property(invalidPetName(), (name) => isLeft(PetName.decode(name))))
  })

  it('says what the OpenAPI schema says, for any string', () => {
    // Marks and default-ignorable code points, assigned or not, beside letters and spaces.
    const edge = fc.constantFrom(
      ...['\u0301', '\u20dd', '\u0903', '\u2065', '\ufff0', '\ufff8', '\u{e0000}', '\u{e0080}'],
      ...['\u{e00ff}', '\u{e01f0}', '\u{e0fff}', '\u{1d167}', '\u200b', ' ', 'a', '名'],
    )
    const strings = fc.oneof(
      fc.string({ unit: edge, maxLength: 6 }),
      fc.string({ unit: 'grapheme', maxLength: 6 }),
      fc.string({ unit: 'binary', maxLength: 6 }),
      petName(),
      invalidPetName().filter((u): u is string => typeof u === 'string'),
    )
    fc.assert(
      fc.property(strings, (s) => {
        const wellFormed = !/[\uD800-\uDFFF]/u.test(s)
        expect(isRight(PetName.decode(s)), JSON.stringify(s)).to.equal(
          wellFormed && schemaAccepts(s),
        )
      }),
      { numRuns: 2000 },
    )
  })
})
