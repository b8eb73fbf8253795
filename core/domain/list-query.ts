import * as t from 'io-ts'
import { PetStatusField } from './new-pet.js'
import { PetIdParam } from './pet.js'
import { strictStruct, type StrictStruct } from './strict-struct.js'

/** How many pets a page may hold, and how many when the caller does not say. */
export type ListLimits = { readonly min: number; readonly max: number; readonly default: number }

/** The interface's page sizes: what the service runs with unless it is configured otherwise. */
export const LIST_LIMITS: ListLimits = { min: 1, max: 100, default: 20 }

/** Digits only; leading zeros are allowed (`0020` is 20), up to a sane length. */
export const LIMIT_MAX_DIGITS = 20
const DIGITS = new RegExp(`^[0-9]{1,${LIMIT_MAX_DIGITS}}$`)
const toLimit = (u: unknown): number | undefined => {
  if (typeof u === 'string') return DIGITS.test(u) ? Number(u) : undefined
  if (typeof u === 'number' || typeof u === 'bigint') return Number(u)
  return undefined
}

/** Page size within `limits`; digits only when it comes from a query string. */
export const limitCodec = ({ min, max }: ListLimits): t.Type<number, number, unknown> => {
  const within = (n: unknown): n is number =>
    Number.isInteger(n) && (n as number) >= min && (n as number) <= max
  return new t.Type<number, number, unknown>(
    'Limit',
    within,
    (u, c) => {
      const n = toLimit(u)
      return within(n)
        ? t.success(n)
        : t.failure(
            u,
            c,
            `must be an integer from ${min} to ${max}, digits only, at most ${LIMIT_MAX_DIGITS} of them`,
          )
    },
    (n) => n,
  )
}

const queryCodec = (limits: ListLimits) =>
  strictStruct(
    'ListPetsQuery',
    {},
    { limit: limitCodec(limits), status: PetStatusField, after: PetIdParam },
    'parameter',
  )

/** The listing request as decoded, before its default limit (an interface: shown by name). */
// eslint-disable-next-line @typescript-eslint/consistent-type-definitions, @typescript-eslint/no-empty-object-type
export interface ListPetsQueryDecoded extends t.TypeOf<ReturnType<typeof queryCodec>> {}

/**
 * The listing request. `after` is the paging position: only pets with a larger id are listed.
 * It is how the `next` link continues a listing without offsets.
 */
export const listPetsQueryCodec = (limits: ListLimits): StrictStruct<ListPetsQueryDecoded> =>
  queryCodec(limits)
/**
 * The decoded query with its default limit. Its optional fields may hold undefined, so that it is
 * built field by field (see listPets): a spread followed by a new key takes V8's slow path.
 */
export type ListPetsQuery = {
  readonly [K in Exclude<keyof ListPetsQueryDecoded, 'limit'>]?: ListPetsQueryDecoded[K] | undefined
} & { readonly limit: number }
