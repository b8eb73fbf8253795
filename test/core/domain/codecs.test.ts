import { expect } from 'chai'
import fc from 'fast-check'
import { isLeft, isRight } from 'fp-ts/lib/Either.js'
import {
  CategoryId,
  decodeWith,
  INT64_MAX,
  LIST_LIMITS,
  limitCodec,
  listPetsQueryCodec,
  NewPet,
  PetStatus,
  PetId,
  PetIdParam,
} from '../../../core/index.js'
import {
  invalidCategoryId,
  invalidPetName,
  invalidStatus,
  newPet,
  outOfRangeInt64,
  petStatus,
  positiveInt64,
} from '../../../adapters/testing/arbitraries.js'

const decodeNewPet = decodeWith(NewPet, 'body')
const problemsOf = (result: ReturnType<typeof decodeNewPet>): string =>
  isLeft(result) ? result.left.problems.join('; ') : 'decoded'

describe('codecs', () => {
  it('PetStatus has exactly available, pending and sold', () => {
    expect(Object.keys(PetStatus.keys)).to.deep.equal(['available', 'pending', 'sold'])
    fc.assert(fc.property(petStatus(), (s) => isRight(PetStatus.decode(s))))
    fc.assert(fc.property(invalidStatus(), (s) => isLeft(PetStatus.decode(s))))
  })

  it('decodes every valid NewPet to itself and encodes it back', () => {
    fc.assert(
      fc.property(newPet(), (pet) => {
        const decoded = NewPet.decode(pet)
        expect(isRight(decoded) && decoded.right).to.deep.equal(pet)
        expect(NewPet.encode(pet)).to.deep.equal(pet)
      }),
    )
  })

  it('refuses an invalid name, categoryId or status with a message naming the field', () => {
    const cases = fc.oneof(
      invalidPetName().map((name) => ['name', { name, categoryId: 1n }] as const),
      invalidCategoryId().map((categoryId) => ['categoryId', { name: 'n', categoryId }] as const),
      invalidStatus().map((status) => ['status', { name: 'n', categoryId: 1n, status }] as const),
    )
    fc.assert(
      fc.property(cases, ([field, input]) => {
        expect(problemsOf(decodeNewPet(input))).to.match(new RegExp(`^${field} `))
      }),
    )
  })

  it('reports every problem at once, and unknown fields by name', () => {
    const problems = problemsOf(decodeNewPet({ id: 1, name: '', categoryId: 0, extra: true }))
    for (const part of [
      'id is not a known field',
      'extra is not a known field',
      'name must not be blank',
      'categoryId must be an integer',
    ])
      expect(problems).to.include(part)
  })

  it('takes ids exactly over the whole int64 range, as bigint or digit string', () => {
    fc.assert(
      fc.property(positiveInt64(), (n) => {
        expect(PetId.decode(n)).to.deep.equal({ _tag: 'Right', right: n })
        expect(PetIdParam.decode(String(n))).to.deep.equal({ _tag: 'Right', right: n })
      }),
    )
    expect(isRight(PetId.decode(INT64_MAX))).to.equal(true)
  })

  it('keeps PetId and CategoryId apart: each has its own brand', () => {
    const petId = PetId.decode(7n)
    if (isLeft(petId)) throw new Error('7 is a valid id')
    // @ts-expect-error a PetId is not a CategoryId (typecheck fails if this line compiles)
    const categoryId: CategoryId = petId.right
    expect(CategoryId.is(categoryId)).to.equal(true)
  })

  it('refuses ids out of range, rounded numbers, and strings in bodies', () => {
    fc.assert(
      fc.property(
        outOfRangeInt64(),
        (n) => isLeft(PetId.decode(n)) && isLeft(PetIdParam.decode(String(n))),
      ),
    )
    for (const u of [2 ** 53, 1.5, '5', Number.NaN, null])
      expect(isLeft(PetId.decode(u)), String(u)).to.equal(true)
  })

  it('says what to send when a number is past 2^53-1: a bigint, or JSON read exactly', () => {
    const messageOf = (u: unknown) => {
      const decoded = CategoryId.decode(u)
      return isLeft(decoded) ? decoded.left.map((e) => e.message).join() : 'accepted'
    }
    for (const u of [2 ** 53, 9007199254740993, 2 ** 63, 1e300])
      expect(messageOf(u), String(u)).to.match(/2\^53-1 .* bigint .* exact integers/)
    // Whatever is wrong with the others, it is not precision: no word of it.
    for (const u of [0, -1, -(2 ** 60), 1.5, '9007199254740993', 10n ** 19n, Infinity])
      expect(messageOf(u), String(u)).not.to.include('bigint')
    for (const u of ['', ' 1', '1 ', '+1', '1e3', '0x10', '１'])
      expect(isLeft(PetIdParam.decode(u)), u).to.equal(true)
  })

  const limit = limitCodec(LIST_LIMITS)
  const listPetsQuery = listPetsQueryCodec(LIST_LIMITS)

  it('takes limit from 1 to 100 only (the default limits)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 100 }),
        (n) => isRight(limit.decode(String(n))) && isRight(limit.decode(n)),
      ),
    )
    fc.assert(
      fc.property(
        fc.integer().filter((n) => n < 1 || n > 100),
        (n) => isLeft(limit.decode(String(n))) && isLeft(limit.decode(n)),
      ),
    )
  })

  it('takes the limits it is given', () => {
    const wide = limitCodec({ min: 5, max: 500, default: 50 })
    expect(isRight(wide.decode('500')) && isLeft(wide.decode('501'))).to.equal(true)
    expect(isLeft(wide.decode('4')) && isRight(wide.decode(5))).to.equal(true)
  })

  it('refuses unknown and repeated query parameters', () => {
    expect(isLeft(listPetsQuery.decode({ limit: ['1', '2'] }))).to.equal(true)
    expect(isLeft(listPetsQuery.decode({ offset: '1' }))).to.equal(true)
    expect(listPetsQuery.decode({ limit: '5', status: 'sold', after: '3' })).to.deep.equal({
      _tag: 'Right',
      right: { limit: 5, status: 'sold', after: 3n },
    })
  })
})
