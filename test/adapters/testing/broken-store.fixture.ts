/**
 * Stores that break the model, one per run (`BROKEN`): the contracts must catch each (see the
 * test beside). Pet stores: `after` ignores `after` when listing; `cap` serves at most half the
 * largest page; `trim` trims names; `op` ignores the op of a keyed insert. Idempotency stores: `claim`
 * claims a key held by a live record anew; `scope` ignores the API key of a scope.
 */
import { afterEach, beforeEach, describe, it } from 'node:test'
import {
  createInMemoryIdempotencyStore,
  createInMemoryPetStore,
} from '../../../adapters/in-memory/index.js'
import { idempotencyStoreContract, petStoreContract } from '../../../adapters/testing/index.js'
import { LIST_LIMITS } from '../../../core/index.js'
import type { IdempotencyStore, PetStore } from '../../../core/index.js'

const pets: Record<string, (store: PetStore) => PetStore> = {
  after: (store) => ({
    ...store,
    listPetPage: ({ after: _after, ...query }) => store.listPetPage(query),
  }),
  cap: (store) => ({
    ...store,
    listPetPage: (query) =>
      store.listPetPage({ ...query, limit: Math.min(query.limit, LIST_LIMITS.max / 2) }),
  }),
  trim: (store) => ({
    ...store,
    insertPet: (pet, op) =>
      store.insertPet({ ...pet, name: pet.name.trim() as typeof pet.name }, op),
  }),
  op: (store) => ({ ...store, insertPet: (pet) => store.insertPet(pet) }),
}
const keys: Record<string, (store: IdempotencyStore) => IdempotencyStore> = {
  claim: (store) => ({
    ...store,
    claimKey: (scope, claim, now) =>
      store.claimKey({ ...scope, key: `${scope.key}#${now}` as typeof scope.key }, claim, now),
  }),
  scope: (store) => ({
    ...store,
    claimKey: (scope, claim, now) => store.claimKey({ ...scope, keyId: 'one' }, claim, now),
  }),
}
const broken = process.env.BROKEN ?? 'after'
const test = { describe, it, beforeEach, afterEach }
const brokenPets = pets[broken]
const brokenKeys = keys[broken]
if (brokenPets !== undefined)
  petStoreContract(
    `broken: ${broken}`,
    async () => ({ store: brokenPets(createInMemoryPetStore()), dispose: async () => {} }),
    { test },
  )
else if (brokenKeys !== undefined)
  idempotencyStoreContract(
    `broken: ${broken}`,
    async () => ({ store: brokenKeys(createInMemoryIdempotencyStore()), dispose: async () => {} }),
    { test, supports: { atomicTakeOver: true } },
  )
else throw new Error(`BROKEN must be one of ${[...Object.keys(pets), ...Object.keys(keys)]}`)
