import { expect } from 'chai'
import fc from 'fast-check'
import { petFingerprint, sameRequest, type NewPet } from '../../../core/index.js'
import { NEW_PET_OPTIONAL, NEW_PET_REQUIRED } from '../../../core/domain/new-pet.js'
import { newPet } from '../../../adapters/testing/arbitraries.js'

const FIELDS = [...Object.keys(NEW_PET_REQUIRED), ...Object.keys(NEW_PET_OPTIONAL)] as Array<
  keyof NewPet
>

/** `pet` with `field` taken from `other` (absent when it is absent there). */
const withFieldOf = (pet: NewPet, other: NewPet, field: keyof NewPet): NewPet => {
  const rest: Partial<NewPet> = { ...pet }
  delete rest[field]
  return (other[field] === undefined ? rest : { ...rest, [field]: other[field] }) as NewPet
}

describe('the fingerprint of an idempotent create', () => {
  it('tells apart two pets that differ in any one field of the codec, and only then', () => {
    fc.assert(
      fc.property(newPet(), newPet(), fc.constantFrom(...FIELDS), (pet, other, field) => {
        const changed = withFieldOf(pet, other, field)
        const same = pet[field] === changed[field]
        expect(petFingerprint(changed) === petFingerprint(pet), field).to.equal(same)
      }),
    )
  })

  it('does not depend on the order of the keys', () => {
    fc.assert(
      fc.property(newPet(), (pet) => {
        const reversed = Object.fromEntries(Object.entries(pet).reverse()) as NewPet
        expect(petFingerprint(reversed)).to.equal(petFingerprint(pet))
      }),
    )
  })

  it('writes a body of the first form’s fields as 2.0.0 did, so its instances replay a retry', () => {
    // 2.0.0 compares the stored string with its own: the first form, an absent field as null.
    expect(petFingerprint({ name: 'Rex', categoryId: 7n } as NewPet)).to.equal('["Rex","7",null]')
    expect(petFingerprint({ name: 'Rex', categoryId: 7n, status: 'sold' } as NewPet)).to.equal(
      '["Rex","7","sold"]',
    )
  })

  it('tags the form of a body with a field the first form never listed', () => {
    const pet = { name: 'Rex', categoryId: 7n, status: 'sold', tag: 'x' } as unknown as NewPet
    const fingerprint = petFingerprint(pet)
    expect(fingerprint.startsWith('2:')).to.equal(true)
    // The required fields by value in the codec's order, then each optional one given, named.
    expect(JSON.parse(fingerprint.slice(2))).to.deep.equal([
      ...Object.keys(NEW_PET_REQUIRED).map((field) => (field === 'name' ? 'Rex' : '7')),
      ...Object.keys(NEW_PET_OPTIONAL).map((field) => [field, 'sold']),
    ])
  })

  it('does not change when the codec gains an optional field the body does not send', () => {
    fc.assert(
      fc.property(newPet(), (pet) => {
        // As a later version sees the same body: its codec knows one more optional field.
        const later = { ...pet, tag: undefined } as unknown as NewPet
        expect(petFingerprint(later)).to.equal(petFingerprint(pet))
      }),
    )
  })

  it('matches the same body against a fingerprint of the first form, and only that body', () => {
    // The first form, as stored by a version before the form was tagged: null for an absent field.
    const first = '["Rex","7",null]'
    const pet = { name: 'Rex', categoryId: 7n } as NewPet
    expect(sameRequest(first, pet)).to.equal(true)
    expect(sameRequest(first, { ...pet, status: 'sold' } as NewPet)).to.equal(false)
    expect(sameRequest(first, { ...pet, name: 'Max' } as NewPet)).to.equal(false)
    // A field the first form never listed cannot have been part of its request.
    expect(sameRequest(first, { ...pet, tag: 'x' } as unknown as NewPet)).to.equal(false)
    expect(sameRequest(petFingerprint(pet), pet)).to.equal(true)
  })

  it('matches the same body against a fingerprint of the tagged form, and only that body', () => {
    const pet = { name: 'Rex', categoryId: 7n } as NewPet
    expect(sameRequest('2:["Rex","7"]', pet)).to.equal(true)
    expect(sameRequest('2:["Rex","7",["status","sold"]]', { ...pet, status: 'sold' })).to.equal(
      true,
    )
    expect(sameRequest('2:["Rex","7"]', { ...pet, status: 'sold' })).to.equal(false)
  })
})
