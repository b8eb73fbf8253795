import * as t from 'io-ts'
import { positiveInt64FromNumber, positiveInt64FromParam } from './int64.js'
import { NEW_PET_OPTIONAL, NEW_PET_REQUIRED } from './new-pet.js'
import { strictStruct } from './strict-struct.js'

/** Marks a bigint as a checked {@link PetId}. */
export type PetIdBrand = { readonly PetId: unique symbol }
/** The identifier the store assigned to a pet. */
export const PetId = positiveInt64FromNumber<PetIdBrand>('PetId')
export type PetId = t.TypeOf<typeof PetId>
/** A PetId as a path or query parameter: digits only. */
export const PetIdParam = positiveInt64FromParam<PetIdBrand>('PetIdParam')

/** An animal as stored and returned: every field of a NewPet, plus the id the store assigned. */
export const Pet = strictStruct(
  'Pet',
  { id: PetId, ...NEW_PET_REQUIRED },
  NEW_PET_OPTIONAL,
  'field',
)
export type Pet = t.TypeOf<typeof Pet>
