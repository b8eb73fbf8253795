/**
 * The test kit for embedders: a contract suite for each port an embedder can implement (the
 * PetStore, keyed inserts included, and the IdempotencyStore), and the fast-check arbitraries our
 * own tests use. Each suite takes a factory of fresh stores and a `supports` manifest of the
 * store's optional features. Needs fast-check (an optional peer dependency).
 *
 * @module animal-store/testing
 */
export {
  petStoreContract,
  type PetStoreContractOptions,
  type PetStoreFactoryOptions,
  type PetStoreSupports,
  type StoreFactory,
} from './pet-store-contract.js'
export type { StoredRecord } from './pet-store-stored-records.js'
export {
  idempotencyStoreContract,
  type IdempotencyStoreContractOptions,
  type IdempotencyStoreFactory,
  type IdempotencyStoreFactoryOptions,
  type IdempotencyStoreSupports,
} from './idempotency-store-contract.js'
export type { ContractOptions, FreshStore } from './suite.js'
export type { TestFunctions } from './test-functions.js'
export * from './arbitraries.js'
