import * as t from 'io-ts'
import { positiveInt64FromNumber, positiveInt64FromParam } from './int64.js'
import { NEW_PET_OPTIONAL, NEW_PET_REQUIRED } from './new-pet.js'
import { StoredPetName } from './pet-name.js'
import { strictStruct, type StrictStruct } from './strict-struct.js'

/** Marks a bigint as a checked {@link PetId}. */
export type PetIdBrand = { readonly PetId: unique symbol }
/** The identifier the store assigned to a pet. */
export const PetId = positiveInt64FromNumber<PetIdBrand>('PetId')
export type PetId = t.TypeOf<typeof PetId>
/** A PetId as a path or query parameter: digits only. */
export const PetIdParam = positiveInt64FromParam<PetIdBrand>('PetIdParam')

/*
 * A Pet is read from what a store or a service of any version wrote, so the codec reads it
 * tolerantly: a field this version does not know is dropped, and a name is taken as stored (the
 * rules of NewPet apply when a pet is written, not when it is read).
 */
const PetCodec = strictStruct(
  'Pet',
  { id: PetId, ...NEW_PET_REQUIRED, name: StoredPetName },
  NEW_PET_OPTIONAL,
  'field',
  'ignore',
)

/**
 * The version of the stored form of a pet that this code writes: the form 2.0.0 wrote, which
 * records no version. 2.0.0 refuses a stored field it does not know, so a store may record a
 * later form's version (as `_v`, which this version reads past) only once 2.0.0 is not running.
 */
export const PET_SCHEMA_VERSION = 1

/**
 * An animal as stored and returned: every field of a NewPet, plus the id the store assigned.
 * An interface, unlike the house's type aliases, so that signatures and the API reference show
 * it by its name rather than the codec's inner types.
 */
// eslint-disable-next-line @typescript-eslint/consistent-type-definitions, @typescript-eslint/no-empty-object-type
export interface Pet extends t.TypeOf<typeof PetCodec> {}
/**
 * The codec of {@link Pet}: reads a pet any version wrote, naming each bad field; a field it
 * does not know is dropped, and the name is not held to today's input rules.
 */
export const Pet: StrictStruct<Pet> = PetCodec
