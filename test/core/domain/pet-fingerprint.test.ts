import { expect } from 'chai'
import fc from 'fast-check'
import { petFingerprint, type NewPet } from '../../../core/index.js'
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

  it('covers every field of the codec', () => {
    const pet = { name: 'Rex', categoryId: 7n, status: 'sold' } as NewPet
    expect(JSON.parse(petFingerprint(pet))).to.have.length(FIELDS.length)
    expect(petFingerprint(pet)).to.equal('["Rex","7","sold"]')
  })
})
