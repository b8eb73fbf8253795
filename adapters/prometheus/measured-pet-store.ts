import type * as TE from 'fp-ts/lib/TaskEither.js'
import { Counter, Histogram, type Registry } from 'prom-client'
import type { PetStore, StoreUnavailable } from '../../core/index.js'

const STORE_BUCKETS = [
  0.0001, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5,
]

/**
 * A decorator of the PetStore port: the latency and the failures (StoreUnavailable) of every
 * call, by operation, whatever the adapter. The composition root wraps the store with it, so no
 * adapter knows about metrics.
 */
export const createStoreMetrics = (registry: Registry) => {
  const duration = new Histogram({
    name: 'animal_store_store_call_duration_seconds',
    help: 'Latency of calls to the pet store, by operation.',
    labelNames: ['operation'],
    buckets: STORE_BUCKETS,
    registers: [registry],
  })
  const failures = new Counter({
    name: 'animal_store_store_call_failures_total',
    help: 'Calls to the pet store that failed (store unavailable), by operation.',
    labelNames: ['operation'],
    registers: [registry],
  })

  const measured = <A extends ReadonlyArray<unknown>, B>(
    operation: keyof PetStore,
    call: (...args: A) => TE.TaskEither<StoreUnavailable, B>,
  ) => {
    const timer = duration.labels(operation)
    const failed = failures.labels(operation)
    failed.inc(0) // so that the series exists, at 0, before the first failure
    return (...args: A): TE.TaskEither<StoreUnavailable, B> => {
      const task = call(...args)
      return async () => {
        const started = performance.now()
        const result = await task()
        timer.observe((performance.now() - started) / 1000)
        if (result._tag === 'Left') failed.inc()
        return result
      }
    }
  }

  return (store: PetStore): PetStore => ({
    insertPet: measured('insertPet', store.insertPet),
    findPet: measured('findPet', store.findPet),
    listPetPage: measured('listPetPage', store.listPetPage),
  })
}
