import assert from 'node:assert/strict'
import type { IdempotencyStore } from '../../core/index.js'
import { claimAt, claimedOp, foundRecord, scope, WINDOW_MS } from './idempotency-fixtures.js'
import { idempotencyStoreCapacity } from './idempotency-store-capacity.js'
import { idempotencyStoreLifecycle } from './idempotency-store-lifecycle.js'
import { defineSuite, ok, type ContractOptions, type FreshStore } from './suite.js'

/** What the contract may ask of the factory, as far as the manifest says the store supports it. */
export type IdempotencyStoreFactoryOptions = {
  /** At most this many live keys (asked only when `supports.capacity`). */
  readonly capacity?: number
}

/** A fresh, empty idempotency store, and how to dispose of it. */
export type IdempotencyStoreFactory = (
  options?: IdempotencyStoreFactoryOptions,
) => Promise<FreshStore<IdempotencyStore>>

/** What the store supports beyond the port's core: the only way the contract tells stores apart. */
export type IdempotencyStoreSupports = {
  /** `takeOverKey` is atomic: of concurrent take-overs of one lease, exactly one wins. */
  readonly atomicTakeOver: boolean
  /**
   * The factory honours `capacity`: full, the store refuses a new key with IdempotencyKeysFull
   * and records nothing. Off unless declared.
   */
  readonly capacity?: boolean
}

/** The options of {@link idempotencyStoreContract}: the store's manifest is required. */
export type IdempotencyStoreContractOptions = ContractOptions & {
  readonly supports: IdempotencyStoreSupports
}

/**
 * The model every implementation of the IdempotencyStore port must match: one call registers
 * the whole suite with the runner. Run it beside {@link petStoreContract} on the pet store the
 * idempotency store serves: a keyed create needs both.
 *
 * @example
 * ```ts
 * // my-idempotency-store.test.ts: run with `node --test` (or under mocha, without `test`).
 * import { afterEach, beforeEach, describe, it } from 'node:test'
 * import { createInMemoryIdempotencyStore } from 'animal-store/in-memory'
 * import { idempotencyStoreContract } from 'animal-store/testing'
 *
 * idempotencyStoreContract(
 *   'my idempotency store',
 *   async () => ({ store: createInMemoryIdempotencyStore(), dispose: async () => {} }),
 *   { test: { describe, it, beforeEach, afterEach }, supports: { atomicTakeOver: true } },
 * )
 * ```
 */
export const idempotencyStoreContract = (
  name: string,
  freshStore: IdempotencyStoreFactory,
  options: IdempotencyStoreContractOptions,
): void => {
  const supports = options?.supports as Partial<IdempotencyStoreSupports> | undefined
  if (typeof supports?.atomicTakeOver !== 'boolean')
    throw new TypeError(
      'idempotencyStoreContract needs options.supports: { atomicTakeOver: boolean }',
    )
  defineSuite(
    `IdempotencyStore contract: ${name}`,
    () => freshStore(),
    options,
    (suite) => {
      const { store, it } = suite

      it('claims a new key once; a later claim finds the record as claimed', async () => {
        const now = Date.now()
        const op = claimedOp(await ok(store().claimKey(scope('k1'), claimAt(now), now)))
        const record = foundRecord(
          await ok(store().claimKey(scope('k1'), claimAt(now + 500), now + 500)),
        )
        const { fingerprint, leaseUntil, expiresAt, pet } = record
        assert.deepEqual(
          { fingerprint, leaseUntil, expiresAt, op: record.op, pet },
          {
            fingerprint: 'fp',
            leaseUntil: now + 1000,
            expiresAt: now + WINDOW_MS,
            op,
            pet: undefined,
          },
        )
      })

      it('gives exactly one of concurrent claims of a key', async () => {
        const now = Date.now()
        const results = await Promise.all(
          Array.from({ length: 8 }, () => ok(store().claimKey(scope('k2'), claimAt(now), now))),
        )
        assert.equal(results.filter((r) => r._tag === 'Claimed').length, 1)
      })

      it('scopes keys per API key, and gives each claim its own op', async () => {
        const now = Date.now()
        const a = claimedOp(await ok(store().claimKey(scope('same', 'key-a'), claimAt(now), now)))
        const b = claimedOp(await ok(store().claimKey(scope('same', 'key-b'), claimAt(now), now)))
        const c = claimedOp(await ok(store().claimKey(scope('other', 'key-a'), claimAt(now), now)))
        assert.equal(new Set([a, b, c]).size, 3)
      })

      idempotencyStoreLifecycle(suite, options.supports)
      if (options.supports.capacity === true)
        idempotencyStoreCapacity(suite, (capacity) => freshStore({ capacity }))
    },
  )
}
