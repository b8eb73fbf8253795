import type { PositiveInt64 } from './int64.js'
import type { Scope } from './scope.js'

/** The request broke a rule; each problem names the field or parameter and the rule. */
export type InvalidInput = {
  readonly _tag: 'InvalidInput'
  readonly problems: ReadonlyArray<string>
}
/**
 * No credential was presented, or the one presented is not a valid API key. `lapsed` says a
 * known key was refused because it expired or was revoked.
 */
export type Unauthenticated = {
  readonly _tag: 'Unauthenticated'
  readonly presented: boolean
  readonly lapsed?: 'expired' | 'revoked'
}
/** A valid key that lacks the scope the operation needs. */
export type InsufficientScope = { readonly _tag: 'InsufficientScope'; readonly scope: Scope }
export type PetNotFound = { readonly _tag: 'PetNotFound'; readonly id: PositiveInt64 }
/** Infrastructure failure. `detail` is for the operator's log, never for the client. */
export type StoreUnavailable = { readonly _tag: 'StoreUnavailable'; readonly detail: string }

export type DomainError =
  InvalidInput | Unauthenticated | InsufficientScope | PetNotFound | StoreUnavailable

export const invalidInput = (problems: ReadonlyArray<string>): InvalidInput => ({
  _tag: 'InvalidInput',
  problems,
})
export const unauthenticated = (presented: boolean): Unauthenticated => ({
  _tag: 'Unauthenticated',
  presented,
})
export const lapsed = (why: 'expired' | 'revoked'): Unauthenticated => ({
  _tag: 'Unauthenticated',
  presented: true,
  lapsed: why,
})
export const insufficientScope = (scope: Scope): InsufficientScope => ({
  _tag: 'InsufficientScope',
  scope,
})
export const petNotFound = (id: PositiveInt64): PetNotFound => ({ _tag: 'PetNotFound', id })
export const storeUnavailable = (detail: string): StoreUnavailable => ({
  _tag: 'StoreUnavailable',
  detail,
})
