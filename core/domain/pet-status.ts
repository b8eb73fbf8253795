import * as t from 'io-ts'

/** Availability of an animal. The seed gives no transitions between these states. */
export const PetStatus = t.keyof({ available: null, pending: null, sold: null }, 'PetStatus')
export type PetStatus = t.TypeOf<typeof PetStatus>

/** Every {@link PetStatus}, in the order the API lists them. */
export const PET_STATUSES: ReadonlyArray<PetStatus> = Object.keys(PetStatus.keys) as PetStatus[]
