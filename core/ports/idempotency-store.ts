import type * as TE from 'fp-ts/lib/TaskEither.js'
import type { IdempotencyKeysFull, StoreUnavailable } from '../domain/errors.js'
import type { IdempotencyKey } from '../domain/idempotency-key.js'
import type { Pet } from '../domain/pet.js'

/** A key belongs to the API key that sent it: two callers never see each other's keys. */
export type IdempotencyScope = { readonly keyId: string; readonly key: IdempotencyKey }

/** Times are epoch milliseconds, from the use case's clock. */
export type IdempotencyClaim = {
  readonly fingerprint: string
  /** Until when the request holding the key is presumed alive (a retry meanwhile gets 409). */
  readonly leaseUntil: number
  /** From when the key is forgotten. */
  readonly expiresAt: number
}

/** What the store keeps for a key: the claim, the op and, once complete, the answer. */
export type IdempotencyRecord = IdempotencyClaim & {
  /** The operation id the pet is inserted with (its `insertPet` op): fixed for the key's life. */
  readonly op: string
  /** Present once the create succeeded: the answer that retries replay. */
  readonly pet?: Pet
}

/** `Claimed`: the key is this caller's, under `op`; `Found`: an earlier claim holds it. */
export type ClaimResult =
  | { readonly _tag: 'Claimed'; readonly op: string }
  | { readonly _tag: 'Found'; readonly record: IdempotencyRecord }

/**
 * Records the key if no live record holds it (one whose `expiresAt` is after `now`), under a new
 * op; otherwise returns that record. Of concurrent claims of one key, exactly one is `Claimed`.
 * A bounded store holding its capacity of live records refuses a new key with
 * `IdempotencyKeysFull` and records nothing.
 */
export type ClaimKey = (
  scope: IdempotencyScope,
  claim: IdempotencyClaim,
  now: number,
) => TE.TaskEither<StoreUnavailable | IdempotencyKeysFull, ClaimResult>
/**
 * Moves the lease of a pending record whose lease is still `expected`; false if it changed or
 * the record is complete. Advisory: on a store without atomic updates two callers may both win,
 * so correctness must come from `insertPet`'s op, never from this.
 */
export type TakeOverKey = (
  scope: IdempotencyScope,
  op: string,
  expected: number,
  leaseUntil: number,
) => TE.TaskEither<StoreUnavailable, boolean>
/** Stores the answer on the record of `op`; later claims find it. */
export type CompleteKey = (
  scope: IdempotencyScope,
  op: string,
  pet: Pet,
) => TE.TaskEither<StoreUnavailable, void>
/** Ends the lease of a still pending record at once: its request failed, a retry may proceed. */
export type ReleaseKey = (
  scope: IdempotencyScope,
  op: string,
) => TE.TaskEither<StoreUnavailable, void>
/**
 * Deletes a still pending record of `op`: its request failed with nothing stored, and nothing
 * ever will be under it (the store is full), so the key is free for any later request, and the
 * record's place (in a bounded store) for any other key.
 */
export type ForgetKey = (
  scope: IdempotencyScope,
  op: string,
) => TE.TaskEither<StoreUnavailable, void>
/** Deletes every record expired at `now`; returns how many. */
export type PurgeExpiredKeys = (now: number) => TE.TaskEither<StoreUnavailable, number>

/** Where idempotency keys live, shared by every instance that shares the pet store. */
export type IdempotencyStore = {
  readonly claimKey: ClaimKey
  readonly takeOverKey: TakeOverKey
  readonly completeKey: CompleteKey
  readonly releaseKey: ReleaseKey
  readonly forgetKey: ForgetKey
  readonly purgeExpiredKeys: PurgeExpiredKeys
}
