import type * as TE from 'fp-ts/lib/TaskEither.js'
import type { OnUnreadablePet, PetStore } from '../../core/index.js'
import {
  histogramCell,
  labelText,
  observe,
  renderCounter,
  renderHistogram,
  type CounterCell,
  type HistogramCell,
} from './exposition.js'

const STORE_BUCKETS = [
  0.0001, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5,
]
const OPERATIONS = ['insertPet', 'findPet', 'listPetPage'] as const
type Operation = (typeof OPERATIONS)[number]

const isUnreadable = (error: unknown): boolean =>
  (error as { readonly _tag?: unknown } | undefined)?._tag === 'UnreadablePet'

/**
 * A decorator of the PetStore port: the latency and the failures (StoreUnavailable) of every
 * call, by operation, whatever the adapter. The composition root wraps the store with it, so no
 * adapter knows about metrics.
 */
export const createStoreMetrics = () => {
  const cells = Object.fromEntries(
    OPERATIONS.map((operation) => {
      const labels = labelText({ operation })
      return [
        operation,
        { duration: histogramCell(labels, STORE_BUCKETS), failures: { labels, value: 0 } },
      ]
    }),
  ) as Record<Operation, { duration: HistogramCell; failures: CounterCell }>
  const unreadable: CounterCell = { labels: '', value: 0 }

  const measured = <A extends ReadonlyArray<unknown>, E, B>(
    operation: Operation,
    call: (...args: A) => TE.TaskEither<E, B>,
  ) => {
    const { duration, failures } = cells[operation]
    return (...args: A): TE.TaskEither<E, B> => {
      const task = call(...args)
      // then() rather than async/await: one promise and one tick fewer per call.
      return () => {
        const started = performance.now()
        return task().then((result) => {
          observe(duration, STORE_BUCKETS, (performance.now() - started) / 1000)
          // A pet the store cannot read is counted on its own (countUnreadablePet), not as an outage.
          if (result._tag === 'Left' && !isUnreadable(result.left)) failures.value += 1
          return result
        })
      }
    }
  }

  const measureStore = (store: PetStore): PetStore => ({
    insertPet: measured('insertPet', store.insertPet),
    findPet: measured('findPet', store.findPet),
    listPetPage: measured('listPetPage', store.listPetPage),
  })

  const countUnreadablePet: OnUnreadablePet = () => {
    unreadable.value += 1
  }

  const render = (): string =>
    renderHistogram(
      'animal_store_store_call_duration_seconds',
      'Latency of calls to the pet store, by operation.',
      STORE_BUCKETS,
      OPERATIONS.map((o) => cells[o].duration),
    ) +
    renderCounter(
      'animal_store_store_call_failures_total',
      'Calls to the pet store that failed (store unavailable), by operation.',
      OPERATIONS.map((o) => cells[o].failures),
    ) +
    renderCounter(
      'animal_store_unreadable_pets_total',
      'Stored pets this version could not read (left out of a page, or refused to a find): see the log.',
      [unreadable],
    )

  return { measureStore, countUnreadablePet, render }
}
