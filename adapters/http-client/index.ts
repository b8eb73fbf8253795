/**
 * A typed client of the Animal Store service, for Node 20+ and browsers: ids as exact bigints,
 * every page, creates retried safely under a budget, and one closed set of failures.
 *
 * @module animal-store/client
 */
export { createClient, type AnimalStoreClient, type TaskEitherCalls } from './client.js'
export type { CallOptions, Calls, CreatePetOptions, ListPetsPage, Result } from './calls.js'
export type { ListPetsRequest } from './next-page.js'
export type { ClientOptions, DeprecationNotice } from './options.js'
export { DEFAULT_BUDGET, type RetryBudget } from './budget.js'
export { DEFAULT_MAX_ANSWER_BYTES } from './answer-body.js'
export type { RetryNotice } from './retry.js'
export {
  isClientError,
  type ClientError,
  type ClientFailure,
  type ServiceFailure,
} from './client-error.js'
