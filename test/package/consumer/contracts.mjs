// The test kit's contracts, run under node:test on the in-memory stores of the installed package:
// as they are (they must pass), or broken one way (BROKEN=op: a pet store that ignores the op of
// a keyed insert; BROKEN=claim: an idempotency store whose claims are not exclusive), which the
// contract must fail.
import { afterEach, beforeEach, describe, it } from 'node:test'
import { createInMemoryIdempotencyStore, createInMemoryPetStore } from 'animal-store/in-memory'
import { idempotencyStoreContract, petStoreContract } from 'animal-store/testing'

const test = { describe, it, beforeEach, afterEach }
const broken = process.env.BROKEN
const ignoreOp = (store) => ({ ...store, insertPet: (pet) => store.insertPet(pet) })
const reclaim = (store) => ({
  ...store,
  claimKey: (scope, claim, now) =>
    store.claimKey({ ...scope, key: `${scope.key}@${now}` }, claim, now),
})

petStoreContract(
  broken === 'op' ? 'ignores op' : 'in-memory',
  async (options) => {
    const store = createInMemoryPetStore(options)
    return { store: broken === 'op' ? ignoreOp(store) : store, dispose: async () => {} }
  },
  { test, properties: 10, supports: { capacity: true } },
)
idempotencyStoreContract(
  broken === 'claim' ? 'claims anew' : 'in-memory',
  async () => {
    const store = createInMemoryIdempotencyStore()
    return { store: broken === 'claim' ? reclaim(store) : store, dispose: async () => {} }
  },
  { test, properties: 10, supports: { atomicTakeOver: true } },
)
