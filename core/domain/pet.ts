import type * as t from 'io-ts'
import { PositiveInt64FromNumber } from './int64.js'
import { CategoryId, PetStatusField } from './new-pet.js'
import { PetName } from './pet-name.js'
import { strictStruct } from './strict-struct.js'

export const PetId = PositiveInt64FromNumber
export type PetId = t.TypeOf<typeof PetId>

/** An animal as stored and returned: a NewPet plus the identifier the store assigned. */
export const Pet = strictStruct(
  'Pet',
  { id: PetId, name: PetName, categoryId: CategoryId },
  { status: PetStatusField },
  'field',
)
export type Pet = t.TypeOf<typeof Pet>
