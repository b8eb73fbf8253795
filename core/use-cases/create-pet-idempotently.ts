import { pipe } from 'fp-ts/lib/function.js'
import * as TE from 'fp-ts/lib/TaskEither.js'
import { decodeWith } from '../domain/decode.js'
import {
  idempotencyKeyInUse,
  idempotencyKeyReused,
  type IdempotencyKeyInUse,
  type IdempotencyKeyReused,
  type IdempotencyKeysFull,
  type InvalidInput,
  type StoreFull,
  type StoreUnavailable,
} from '../domain/errors.js'
import { IdempotencyKey } from '../domain/idempotency-key.js'
import { NewPet } from '../domain/new-pet.js'
import type { Pet } from '../domain/pet.js'
import { petFingerprint, sameRequest } from '../domain/pet-fingerprint.js'
import type {
  IdempotencyRecord,
  IdempotencyScope,
  IdempotencyStore,
} from '../ports/idempotency-store.js'
import type { PetStore } from '../ports/pet-store.js'

/** How long keys are kept, and how long a request holding one is presumed alive. */
export type IdempotencyPolicy = { readonly windowMs: number; readonly leaseMs: number }
/** Keys are kept 24 hours; a request holding one is presumed alive for 30 seconds. */
export const IDEMPOTENCY_DEFAULTS: IdempotencyPolicy = { windowMs: 24 * 3600_000, leaseMs: 30_000 }

/** The pet store's insert, the idempotency store, a clock, and optionally the policy. */
export type CreatePetIdempotentlyDeps = Pick<PetStore, 'insertPet'> & {
  /** Where the keys are recorded. */
  readonly idempotencyStore: IdempotencyStore
  /** How long they are kept and held; {@link IDEMPOTENCY_DEFAULTS} when absent. */
  readonly idempotencyPolicy?: IdempotencyPolicy
  /** The clock, in epoch milliseconds. */
  readonly now: () => number
}

/** `keyId` is the caller's (the principal's); `key` and `body` are untrusted and decoded here. */
export type IdempotentCreate = {
  readonly keyId: string
  readonly key: unknown
  readonly body: unknown
}
/** `replayed`: the pet comes from the stored answer of an earlier request with the same key. */
export type IdempotentResult = { readonly pet: Pet; readonly replayed: boolean }
/** Every way a keyed create can fail. */
export type IdempotentCreateFailure =
  | InvalidInput
  | StoreUnavailable
  | StoreFull
  | IdempotencyKeysFull
  | IdempotencyKeyReused
  | IdempotencyKeyInUse

const decodeKey = decodeWith(IdempotencyKey, 'Idempotency-Key')
const decodeNewPet = decodeWith(NewPet, 'body')

/** A failure of bookkeeping after the fact changes nothing the client should see. */
const ignoreFailure = (
  task: TE.TaskEither<StoreUnavailable, unknown>,
): TE.TaskEither<never, void> =>
  pipe(
    task,
    TE.map(() => undefined),
    TE.orElseW(() => TE.right<never, void>(undefined)),
  )

/**
 * After a failed insert. The store full: nothing was stored, nor ever will be under this op, so
 * the key is forgotten (a stream of keyed creates refused 507 would otherwise leave a record
 * each, for a day). Anything else (an outage): the pet may have been stored, so the record and
 * its op stay for the retry, released at once.
 */
const afterFailure = (
  deps: CreatePetIdempotentlyDeps,
  scope: IdempotencyScope,
  op: string,
  failure: StoreUnavailable | StoreFull,
) =>
  failure._tag === 'StoreFull'
    ? deps.idempotencyStore.forgetKey(scope, op)
    : deps.idempotencyStore.releaseKey(scope, op)

/**
 * Inserts under the key's op, so that however many requests get here for one key, one pet is
 * stored (the store's guarantee for an op). A failure frees the key for an immediate retry.
 */
const insert = (
  deps: CreatePetIdempotentlyDeps,
  scope: IdempotencyScope,
  pet: NewPet,
  op: string,
) =>
  pipe(
    deps.insertPet(pet, op),
    TE.tapError((failure) => ignoreFailure(afterFailure(deps, scope, op, failure))),
    TE.tap((stored) => ignoreFailure(deps.idempotencyStore.completeKey(scope, op, stored))),
    TE.map((stored): IdempotentResult => ({ pet: stored, replayed: false })),
  )

/** A key already recorded: replay, refuse, or take over from a request that is gone. */
const resume = (
  deps: CreatePetIdempotentlyDeps,
  scope: IdempotencyScope,
  pet: NewPet,
  record: IdempotencyRecord,
  now: number,
): TE.TaskEither<IdempotentCreateFailure, IdempotentResult> => {
  if (!sameRequest(record.fingerprint, pet)) return TE.left(idempotencyKeyReused)
  if (record.pet !== undefined) return TE.right({ pet: record.pet, replayed: true })
  if (record.leaseUntil > now) return TE.left(idempotencyKeyInUse(record.leaseUntil - now))
  const leaseMs = (deps.idempotencyPolicy ?? IDEMPOTENCY_DEFAULTS).leaseMs
  return pipe(
    deps.idempotencyStore.takeOverKey(scope, record.op, record.leaseUntil, now + leaseMs),
    TE.chainW((won): TE.TaskEither<IdempotentCreateFailure, IdempotentResult> =>
      // Lost to another retry, which holds the key for a whole lease from about now.
      won ? insert(deps, scope, pet, record.op) : TE.left(idempotencyKeyInUse(leaseMs)),
    ),
  )
}

/**
 * Adds an animal at most once per Idempotency-Key (IETF httpapi draft, Stripe's semantics):
 * the key is reserved first, the pet is inserted carrying the key's op, then the answer is
 * recorded. A retry with the same key and body replays that answer; with another body it is
 * refused; while the first request runs it is refused as in use. Invalid input records nothing.
 */
export const createPetIdempotently =
  (deps: CreatePetIdempotentlyDeps) =>
  (input: IdempotentCreate): TE.TaskEither<IdempotentCreateFailure, IdempotentResult> => {
    const { windowMs, leaseMs } = deps.idempotencyPolicy ?? IDEMPOTENCY_DEFAULTS
    return pipe(
      TE.fromEither(decodeKey(input.key)),
      TE.bindTo('key'),
      TE.bindW('pet', () => TE.fromEither(decodeNewPet(input.body))),
      TE.chainW(({ key, pet }) => {
        const scope = { keyId: input.keyId, key }
        const now = deps.now()
        const claim = {
          fingerprint: petFingerprint(pet),
          leaseUntil: now + leaseMs,
          expiresAt: now + windowMs,
        }
        return pipe(
          deps.idempotencyStore.claimKey(scope, claim, now),
          TE.chainW((claimed) =>
            claimed._tag === 'Claimed'
              ? insert(deps, scope, pet, claimed.op)
              : resume(deps, scope, pet, claimed.record, now),
          ),
        )
      }),
    )
  }
