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
    const strings = fc.oneof(
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
