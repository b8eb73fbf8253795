import * as t from 'io-ts'
import { positiveInt64FromNumber, positiveInt64FromParam } from './int64.js'
import { NEW_PET_OPTIONAL, NEW_PET_REQUIRED } from './new-pet.js'
import { strictStruct, type StrictStruct } from './strict-struct.js'

/** Marks a bigint as a checked {@link PetId}. */
export type PetIdBrand = { readonly PetId: unique symbol }
/** The identifier the store assigned to a pet. */
export const PetId = positiveInt64FromNumber<PetIdBrand>('PetId')
export type PetId = t.TypeOf<typeof PetId>
/** A PetId as a path or query parameter: digits only. */
export const PetIdParam = positiveInt64FromParam<PetIdBrand>('PetIdParam')

const PetCodec = strictStruct('Pet', { id: PetId, ...NEW_PET_REQUIRED }, NEW_PET_OPTIONAL, 'field')

/**
 * An animal as stored and returned: every field of a NewPet, plus the id the store assigned.
 * An interface, unlike the house's type aliases, so that signatures and the API reference show
 * it by its name rather than the codec's inner types.
 */
// eslint-disable-next-line @typescript-eslint/consistent-type-definitions, @typescript-eslint/no-empty-object-type
export interface Pet extends t.TypeOf<typeof PetCodec> {}
/** The codec of {@link Pet}: decodes untrusted input into a Pet, naming each bad field. */
export const Pet: StrictStruct<Pet> = PetCodec
