/**
 * The test kit for embedders: the contract every PetStore adapter must pass, and the fast-check
 * arbitraries our own tests use. Needs fast-check (an optional peer dependency).
 */
export {
  petStoreContract,
  type PetStoreContractOptions,
  type StoreFactory,
} from './pet-store-contract.js'
export type { TestFunctions } from './test-functions.js'
export * from './arbitraries.js'
