import {
  SpanKind,
  SpanStatusCode,
  trace,
  TraceFlags,
  type Context,
  type Tracer,
} from '@opentelemetry/api'
import type * as TE from 'fp-ts/lib/TaskEither.js'
import type { IdempotencyStore, PetStore } from '../../../core/index.js'
import { runningOperation } from './steps.js'

/** Whether the operation's trace is sampled: its store calls are then spans too. */
const sampled = (operation: Context): boolean =>
  ((trace.getSpanContext(operation)?.traceFlags ?? TraceFlags.NONE) & TraceFlags.SAMPLED) !== 0

const tagOf = (error: unknown): string =>
  typeof error === 'object' && error !== null && '_tag' in error ? String(error._tag) : 'error'

/**
 * Decorators of the PetStore and IdempotencyStore ports, as the metrics' (store-metrics.ts): a
 * span for each call made or started while a sampled operation runs (steps.ts), named after the
 * port's function, whatever the adapter. A call outside one (the idempotency store's purge, an
 * unsampled request, a call a use case makes only after waiting) makes none and costs a lookup. `system` is the database's name in the semantic
 * conventions (`mongodb`), absent for a store in the process.
 */
export const createStoreSpans = (tracer: Tracer, system: string | undefined) => {
  const kind = system === undefined ? SpanKind.INTERNAL : SpanKind.CLIENT
  const traced = <A extends ReadonlyArray<unknown>, E, B>(
    operation: string,
    call: (...args: A) => TE.TaskEither<E, B>,
  ) => {
    const attributes = {
      'db.operation.name': operation,
      ...(system === undefined ? {} : { 'db.system.name': system }),
    }
    return (...args: A): TE.TaskEither<E, B> => {
      const task = call(...args)
      const calledIn = runningOperation()
      return () => {
        const parent = runningOperation() ?? calledIn
        if (parent === undefined || !sampled(parent)) return task()
        const span = tracer.startSpan(operation, { kind, attributes }, parent)
        const failed = (error: unknown) => {
          span.setAttribute('error.type', tagOf(error))
          span.setStatus({ code: SpanStatusCode.ERROR })
        }
        return task().then(
          (result) => {
            if (result._tag === 'Left') failed(result.left)
            span.end()
            return result
          },
          (error: unknown) => {
            failed(error)
            span.end()
            throw error
          },
        )
      }
    }
  }

  const tracePetStore = (store: PetStore): PetStore => ({
    insertPet: traced('insertPet', store.insertPet),
    findPet: traced('findPet', store.findPet),
    listPetPage: traced('listPetPage', store.listPetPage),
  })

  const traceIdempotencyStore = (store: IdempotencyStore): IdempotencyStore => ({
    claimKey: traced('claimKey', store.claimKey),
    takeOverKey: traced('takeOverKey', store.takeOverKey),
    completeKey: traced('completeKey', store.completeKey),
    releaseKey: traced('releaseKey', store.releaseKey),
    forgetKey: traced('forgetKey', store.forgetKey),
    purgeExpiredKeys: traced('purgeExpiredKeys', store.purgeExpiredKeys),
  })

  return { tracePetStore, traceIdempotencyStore }
}

export type StoreSpans = ReturnType<typeof createStoreSpans>
