import * as TE from 'fp-ts/lib/TaskEither.js'
import { storeUnavailable, type StoreUnavailable } from '../../core/index.js'

/** A driver failure (unreachable, timed out, refused) as a typed StoreUnavailable. */
export const driverFailure = (error: unknown): StoreUnavailable =>
  storeUnavailable(error instanceof Error ? `${error.name}: ${error.message}` : String(error))

/** Every driver failure becomes a typed StoreUnavailable. */
export const fromDriver = <A>(run: () => Promise<A>): TE.TaskEither<StoreUnavailable, A> =>
  TE.tryCatch(run, driverFailure)

export const isDuplicateKey = (error: unknown): boolean =>
  typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 11000
