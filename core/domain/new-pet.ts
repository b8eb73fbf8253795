import type * as t from 'io-ts'
import { positiveInt64FromNumber } from './int64.js'
import { PetName } from './pet-name.js'
import { PetStatus } from './pet-status.js'
import { strictStruct, type StrictStruct } from './strict-struct.js'
import { withMessage } from './with-message.js'

/** Marks a bigint as a checked {@link CategoryId}. */
export type CategoryIdBrand = { readonly CategoryId: unique symbol }
/** The category of a pet: a positive int64, exact in JSON as a number. */
export const CategoryId = positiveInt64FromNumber<CategoryIdBrand>('CategoryId')
/** A checked category id (a positive int64 as a bigint). */
export type CategoryId = t.TypeOf<typeof CategoryId>

export const PetStatusField = withMessage(PetStatus, 'must be one of available, pending, sold')

/*
 * The one list of a pet's fields. Pet adds `id` to these. The JSON writer, the OpenAPI schema
 * and the test generators are typed over every field, so a field added here fails to compile
 * until each handles it; the stored documents and the idempotency fingerprint take the fields
 * from here and need no change.
 */
export const NEW_PET_REQUIRED = { name: PetName, categoryId: CategoryId }
export const NEW_PET_OPTIONAL = { status: PetStatusField }

const NewPetCodec = strictStruct('NewPet', NEW_PET_REQUIRED, NEW_PET_OPTIONAL, 'field')

/**
 * What a client sends to add an animal. Unknown fields, `id` among them, are refused. An
 * interface, unlike the house's type aliases, so that signatures show it by its name.
 */
// eslint-disable-next-line @typescript-eslint/consistent-type-definitions, @typescript-eslint/no-empty-object-type
export interface NewPet extends t.TypeOf<typeof NewPetCodec> {}
/** The codec of {@link NewPet}: decodes untrusted input into a NewPet, naming each bad field. */
export const NewPet: StrictStruct<NewPet> = NewPetCodec
