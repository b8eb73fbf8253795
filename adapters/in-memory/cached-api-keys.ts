import * as E from 'fp-ts/lib/Either.js'
import * as O from 'fp-ts/lib/Option.js'
import { pipe } from 'fp-ts/lib/function.js'
import * as TE from 'fp-ts/lib/TaskEither.js'
import {
  storeUnavailable,
  type ApiKeyRegistry,
  type ApiKeys,
  type StoreUnavailable,
  type StoredKey,
} from '../../core/index.js'
import { createKeyRing } from './api-keys.js'

/** Where the keys come from, and how fresh the cached copy must be. */
export type CachedApiKeysOptions = {
  /** Always accepted (API_KEYS), whatever the source says. */
  readonly bootstrap: ReadonlyArray<StoredKey>
  /** Every stored key when they changed since `seen`: a MongoDB collection or a key file. */
  readonly load: ApiKeyRegistry['readKeysIfChanged']
  /** The clock, in epoch milliseconds. */
  readonly now: () => number
  /** Past this age a request starts a refresh in the background and is answered from the cache. */
  readonly refreshAfterMs: number
  /** Past this age a request waits for the refresh: the bound on how stale a decision can be. */
  readonly maxAgeMs: number
  /**
   * Past `maxAgeMs`, how long a request waits for the refresh before it fails closed
   * (StoreUnavailable); 2,000 ms by default, `Infinity` to wait for it however long it takes.
   * The service gives it STORE_TIMEOUT_MS.
   */
  readonly waitMs?: number
  /** Told of each failed refresh; the cache keeps answering until `maxAgeMs`. */
  readonly onError?: (error: StoreUnavailable) => void
}

/** The refresh's outcome, or StoreUnavailable once `waitMs` passed without one. */
const within = async (
  pending: Promise<E.Either<StoreUnavailable, void>>,
  waitMs: number,
): Promise<E.Either<StoreUnavailable, void>> => {
  if (waitMs === Infinity) return pending
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<E.Either<StoreUnavailable, void>>((resolve) => {
    timer = setTimeout(
      () => resolve(E.left(storeUnavailable(`the keys were not read within ${waitMs} ms`))),
      waitMs,
    )
  })
  return Promise.race([pending, late]).finally(() => clearTimeout(timer))
}

/**
 * Keys from a shared source, cached per instance. No timer: requests drive the refresh, so an
 * idle instance does no work and nothing needs stopping; a request never sees keys checked more
 * than `maxAgeMs` before it, which bounds how long a revocation or a new key takes to apply. A
 * check costs one small read; the keys are read and indexed again only when they changed, a
 * slice at a time.
 */
export const createCachedApiKeys = (options: CachedApiKeysOptions): ApiKeys => {
  const { bootstrap, now } = options
  const ring = createKeyRing(bootstrap)
  /** API_KEYS alone: they do not come from the source, so they work while it cannot be read. */
  const bootstrapRing = createKeyRing(bootstrap)
  let loadedAt = -Infinity
  let version: string | undefined
  let inFlight: Promise<E.Either<StoreUnavailable, void>> | undefined

  const refresh = () => {
    const started = now()
    inFlight ??= pipe(
      options.load(version),
      TE.chainTaskK((changed) => async () => {
        if (O.isSome(changed)) {
          await ring.replaceGradually([...changed.value.keys, ...bootstrap])
          version = changed.value.version
        }
        loadedAt = Math.max(loadedAt, started)
      }),
      TE.mapLeft((error) => (options.onError?.(error), error)),
    )().finally(() => (inFlight = undefined))
    return inFlight
  }

  // Read at once, so that the first requests do not all wait for it and then hit the store together.
  void refresh()
  return {
    verifyApiKey: (presented) => {
      const age = now() - loadedAt
      if (age <= options.refreshAfterMs) return ring.verifyApiKey(presented)
      const pending = refresh()
      if (age <= options.maxAgeMs) return ring.verifyApiKey(presented)
      return async () => {
        // API_KEYS are accepted whatever the source says, so they never wait for it (a source
        // that stalls would hold them up to its timeout).
        const bootstrapped = await bootstrapRing.verifyApiKey(presented)()
        if (E.isRight(bootstrapped) && O.isSome(bootstrapped.right)) return bootstrapped
        // Any other key waits, and fails closed: a revocation must not be missed.
        const loaded = await within(pending, options.waitMs ?? 2000)
        return E.isRight(loaded) ? ring.verifyApiKey(presented)() : loaded
      }
    },
  }
}
