/**
 * fast-check arbitraries for Animal Store values, exported (`animal-store/testing`) so that
 * embedding programs can write property tests against the same generators as ours.
 */
import fc from 'fast-check'
import {
  INT64_MAX,
  PET_NAME_MAX_LENGTH,
  PET_STATUSES,
  type NewPet,
  type Pet,
  type PetStatus,
} from '../../core/index.js'
import { NEW_PET_REQUIRED } from '../../core/domain/new-pet.js'

/** Positive int64 values, the bounds and the 2^53 edge of doubles weighted in. */
export const positiveInt64 = (): fc.Arbitrary<bigint> =>
  fc.oneof(
    fc.bigInt({ min: 1n, max: INT64_MAX }),
    fc.bigInt({ min: 1n, max: 1000n }),
    fc.bigInt({ min: 2n ** 53n - 10n, max: 2n ** 53n + 10n }),
    fc.constantFrom(1n, INT64_MAX, INT64_MAX - 1n),
  )

/** Integers that are not valid identifiers: zero, negatives, and just past the int64 range. */
export const outOfRangeInt64 = (): fc.Arbitrary<bigint> =>
  fc.oneof(
    fc.constantFrom(0n, -1n, INT64_MAX + 1n, 2n ** 64n),
    fc.bigInt({ min: -(2n ** 70n), max: 0n }),
    fc.bigInt({ min: INT64_MAX + 1n, max: 2n ** 80n }),
  )

/** Any {@link PetStatus}. */
export const petStatus = (): fc.Arbitrary<PetStatus> => fc.constantFrom(...PET_STATUSES)

const visible = fc
  .string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 1 })
  .filter((c) => /[!-~]/.test(c))
const nameChar = fc.oneof(
  { weight: 8, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }) },
  {
    weight: 1,
    // Around a visible character, invisible ones are allowed: a zero-width joiner in an emoji
    arbitrary: fc.constantFrom(
      ' ',
      '\u00a0',
      'é',
      '🐈',
      '名',
      '\u200b',
      '\u200d',
      '\u3164',
      '\u2800',
    ),
  },
)

/** Valid names: at least one visible character, no control or bidirectional characters, up to the maximum. */
export const petName = (): fc.Arbitrary<string> =>
  fc
    .tuple(fc.array(nameChar, { maxLength: 40 }), visible, fc.array(nameChar, { maxLength: 40 }))
    .map(([before, middle, after]) => [...before, middle, ...after].join(''))
    .filter(
      (s) =>
        !/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/u.test(s) &&
        [...s].length <= PET_NAME_MAX_LENGTH,
    )

/** Characters that show nothing, for names made only of them (and whitespace): combining marks too. */
const invisible = fc.constantFrom(
  ' ',
  '\u3000',
  '\u200b',
  '\u200c',
  '\u2060',
  '\ufeff',
  '\u00ad',
  '\u3164',
  '\u115f',
  '\uffa0',
  '\u2800',
  '\ufe0f',
  '\u{e0041}',
  '\u2065',
  '\ufff0',
  '\u{e0000}',
  '\u{e0080}',
  '\u{e0fff}',
  '\u0301',
  '\u20dd',
)
const bidiControl = fc.constantFrom(...'\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069')

/** Names every rule refuses: blank or invisible, with bidirectional or control characters, too long, lone surrogates, not strings. */
export const invalidPetName = (): fc.Arbitrary<unknown> =>
  fc.oneof(
    fc.array(invisible, { minLength: 1, maxLength: 8 }).map((cs) => cs.join('')),
    fc
      .tuple(fc.constantFrom('', 'Rex', 'gnp.exe'), bidiControl, fc.constantFrom('', 'cat'))
      .map(([before, control, after]) => before + control + after),
    fc.constantFrom(
      '',
      ' ',
      '\t\n',
      '\u3000',
      'a\u0000b',
      'line\nbreak',
      'a\u0085',
      '\ud800x',
      'x\udfff',
    ),
    fc.constant('x'.repeat(PET_NAME_MAX_LENGTH + 1)),
    fc.constant('🐈'.repeat(PET_NAME_MAX_LENGTH + 1)),
    fc.oneof(fc.integer(), fc.boolean(), fc.constant(null), fc.array(fc.string()), fc.object()),
  )

/** One generator per field of a NewPet: typed so that a field added to the codecs must get one. */
const newPetFields = (): { [K in keyof NewPet]-?: fc.Arbitrary<unknown> } => ({
  name: petName(),
  categoryId: positiveInt64(),
  status: petStatus(),
})

/** Valid new pets, with and without a status. */
export const newPet = (): fc.Arbitrary<NewPet> =>
  fc.record(newPetFields(), {
    requiredKeys: Object.keys(NEW_PET_REQUIRED) as Array<keyof NewPet>,
  }) as fc.Arbitrary<NewPet>

/** Pets as a store returns them: a NewPet with an id, the int64 bounds among the ids. */
export const pet = (): fc.Arbitrary<Pet> =>
  fc.tuple(positiveInt64(), newPet()).map(([id, fields]) => ({ id, ...fields }) as Pet)

/** Values that are not a valid status. */
export const invalidStatus = (): fc.Arbitrary<unknown> =>
  fc.oneof(
    fc.string().filter((s) => !(PET_STATUSES as ReadonlyArray<string>).includes(s)),
    fc.constantFrom('Available', 'SOLD', ' sold', null, 1, true),
  )

/** Values that are not a valid categoryId in a body: wrong type, fractional, out of range. */
export const invalidCategoryId = (): fc.Arbitrary<unknown> =>
  fc.oneof(
    outOfRangeInt64(),
    fc.constantFrom(0, -1, 1.5, Number.NaN, Infinity, 2 ** 53, '1', '12', null, true, [], {}),
  )
