import type * as t from 'io-ts'
import { PositiveInt64FromNumber } from './int64.js'
import { PetName } from './pet-name.js'
import { PetStatus } from './pet-status.js'
import { strictStruct } from './strict-struct.js'
import { withMessage } from './with-message.js'

export const CategoryId = PositiveInt64FromNumber
export type CategoryId = t.TypeOf<typeof CategoryId>

export const PetStatusField = withMessage(PetStatus, 'must be one of available, pending, sold')

/** What a client sends to add an animal. Unknown fields, `id` among them, are refused. */
export const NewPet = strictStruct(
  'NewPet',
  { name: PetName, categoryId: CategoryId },
  { status: PetStatusField },
  'field',
)
export type NewPet = t.TypeOf<typeof NewPet>
