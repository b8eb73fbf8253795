import * as TE from 'fp-ts/lib/TaskEither.js'
import {
  createInMemoryIdempotencyStore,
  createInMemoryPetStore,
} from '../../adapters/in-memory/index.js'
import type {
  ApiKeyRegistry,
  CheckReadiness,
  IdempotencyStore,
  Logger,
  OnUnreadablePet,
  PetStore,
} from '../../core/index.js'
import type { Config } from './config.js'

/** The store the service runs on, whichever it is: main, the tests and the bench all open it here. */
export type Storage = {
  readonly store: PetStore
  /** Idempotency keys, kept where the pets are, so that every instance sees them. */
  readonly idempotencyStore?: IdempotencyStore
  readonly checkReadiness: CheckReadiness
  readonly close: () => Promise<void>
  /** Where minted keys live, when the store holds them (MongoDB). */
  readonly keyRegistry?: ApiKeyRegistry
}

export type StorageConfig = Pick<
  Config,
  'mongodbUri' | 'maxPets' | 'storeTimeoutMs' | 'startupTimeoutMs'
>

/**
 * A store that lives in this process: always ready, nothing to close, keys kept beside it, at
 * most `keyCapacity` of them.
 */
export const processLocalStorage = (store: PetStore, keyCapacity?: number): Storage => ({
  store,
  idempotencyStore: createInMemoryIdempotencyStore({ capacity: keyCapacity }),
  checkReadiness: () => TE.right(undefined),
  close: async () => {},
})

/**
 * As many idempotency keys as pets at most: the heap figure of a pet includes its key's record
 * (heap-fit.ts), so MAX_PETS that fit in the heap fit with their keys.
 */
export const inMemoryStorage = (capacity?: number): Storage =>
  processLocalStorage(createInMemoryPetStore({ capacity }), capacity)

/**
 * MongoDB when MONGODB_URI is set, else the in-memory store. The driver is loaded only when it
 * is used, so the in-memory default starts without it.
 */
export const openStorage = async (
  config: StorageConfig,
  logger: Logger,
  onUnreadablePet: OnUnreadablePet = reportUnreadablePet(logger),
): Promise<Storage> => {
  if (config.mongodbUri === undefined) return inMemoryStorage(config.maxPets)
  const { mongoStorage } = await import('./mongo-storage.js')
  return mongoStorage(config.mongodbUri, config, logger, onUnreadablePet)
}

/**
 * The log line of a stored pet this version cannot read: the operator's cue to run
 * `npm run store -- check` (docs/operations.md). It concerns that pet alone.
 */
export const reportUnreadablePet =
  (logger: Logger): OnUnreadablePet =>
  ({ id, reason }) =>
    logger.warn({ petId: id, reason }, 'a stored pet cannot be read by this version: left out')
