import type { PetId } from './pet.js'
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
/** No pet has this id. */
export type PetNotFound = { readonly _tag: 'PetNotFound'; readonly id: PetId }
/** Infrastructure failure. `detail` is for the operator's log, never for the client. */
export type StoreUnavailable = { readonly _tag: 'StoreUnavailable'; readonly detail: string }

/**
 * The store holds a pet under this id that this version cannot read (a field of the wrong type,
 * a status it does not know). It concerns that pet alone; `reason` is for the operator's log.
 */
export type UnreadablePet = {
  readonly _tag: 'UnreadablePet'
  readonly id: string
  readonly reason: string
}

/**
 * The store can take no more pets: it holds its configured `capacity`, or, without one, every
 * identifier up to 2^63-1 is used or passed. Not an outage: retrying cannot help.
 */
export type StoreFull = { readonly _tag: 'StoreFull'; readonly capacity?: number }

/**
 * The idempotency store holds as many keys as it may (`capacity`), none of them expired: a create
 * with a new key is refused until older keys expire; creates without a key are not affected.
 */
export type IdempotencyKeysFull = {
  readonly _tag: 'IdempotencyKeysFull'
  readonly capacity: number
}

/** The idempotency key was first used with another body: the client reused a key by mistake. */
export type IdempotencyKeyReused = { readonly _tag: 'IdempotencyKeyReused' }
/**
 * The first request with this idempotency key is still being processed, or is presumed to be:
 * `leaseEndsInMs` from now its hold on the key lapses (it may have died), and a retry takes over.
 */
export type IdempotencyKeyInUse = {
  readonly _tag: 'IdempotencyKeyInUse'
  readonly leaseEndsInMs: number
}
/** The service is stopping and takes no new work: what readiness answers then, not a failure. */
export type ShuttingDown = { readonly _tag: 'ShuttingDown' }

/** Every way a use case can fail: the `Left` of their results, told apart by `_tag`. */
export type DomainError =
  | InvalidInput
  | Unauthenticated
  | InsufficientScope
  | PetNotFound
  | StoreUnavailable
  | UnreadablePet
  | StoreFull
  | IdempotencyKeysFull
  | IdempotencyKeyReused
  | IdempotencyKeyInUse
  | ShuttingDown

/** An {@link InvalidInput} with these problems. */
export const invalidInput = (problems: ReadonlyArray<string>): InvalidInput => ({
  _tag: 'InvalidInput',
  problems,
})
/** An {@link Unauthenticated}: `presented` says whether a credential came at all. */
export const unauthenticated = (presented: boolean): Unauthenticated => ({
  _tag: 'Unauthenticated',
  presented,
})
/** An {@link Unauthenticated} for a known key that expired or was revoked. */
export const lapsed = (why: 'expired' | 'revoked'): Unauthenticated => ({
  _tag: 'Unauthenticated',
  presented: true,
  lapsed: why,
})
/** An {@link InsufficientScope} naming the scope the operation needs. */
export const insufficientScope = (scope: Scope): InsufficientScope => ({
  _tag: 'InsufficientScope',
  scope,
})
/** A {@link PetNotFound} for this id. */
export const petNotFound = (id: PetId): PetNotFound => ({ _tag: 'PetNotFound', id })
/** An {@link UnreadablePet}: the stored pet `id` (as its digits) and why it cannot be read. */
export const unreadablePet = (id: string, reason: string): UnreadablePet => ({
  _tag: 'UnreadablePet',
  id,
  reason,
})
/** A {@link StoreFull} for a store that holds `capacity` pets. */
export const storeFull = (capacity: number): StoreFull => ({ _tag: 'StoreFull', capacity })
/** No identifier is left above the largest in use: the id space of positive int64 is spent. */
export const identifiersExhausted: StoreFull = { _tag: 'StoreFull' }
/** A {@link StoreUnavailable}; `detail` goes to the operator's log only. */
export const storeUnavailable = (detail: string): StoreUnavailable => ({
  _tag: 'StoreUnavailable',
  detail,
})
/** An {@link IdempotencyKeysFull} for an idempotency store that holds `capacity` keys. */
export const idempotencyKeysFull = (capacity: number): IdempotencyKeysFull => ({
  _tag: 'IdempotencyKeysFull',
  capacity,
})
/** The {@link IdempotencyKeyReused} error. */
export const idempotencyKeyReused: IdempotencyKeyReused = { _tag: 'IdempotencyKeyReused' }
/** An {@link IdempotencyKeyInUse} whose holder's lease ends in `leaseEndsInMs`. */
export const idempotencyKeyInUse = (leaseEndsInMs: number): IdempotencyKeyInUse => ({
  _tag: 'IdempotencyKeyInUse',
  leaseEndsInMs,
})
/** The {@link ShuttingDown} answer. */
export const shuttingDown: ShuttingDown = { _tag: 'ShuttingDown' }
