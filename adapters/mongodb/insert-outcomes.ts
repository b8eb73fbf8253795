import { MongoBulkWriteError } from 'mongodb'
import { isDuplicateKey } from './store-failure.js'

/**
 * What one document of an insert came to: stored; not stored because another writer holds its
 * id (the only outcome that may be retried under a new id); or failed, stored or not.
 */
export type InsertOutcome =
  | { readonly kind: 'stored' }
  | { readonly kind: 'taken' }
  | { readonly kind: 'failed'; readonly error: unknown }

const failed = (what: string, failure: { code?: unknown; errmsg?: unknown }): InsertOutcome => ({
  kind: 'failed',
  error: new Error(`${what} ${String(failure.code)}: ${String(failure.errmsg)}`),
})

/**
 * Per-document outcomes of an unordered insertMany. Only a reply that lists write errors says
 * which documents went in: those it does not list, unless majority was not confirmed. Any
 * other failure (network, timeout, a refused command, even one with a duplicate-key code)
 * leaves every outcome unknown, so none is ever retried under a new id.
 */
export const insertOutcomes = (count: number, error: unknown): InsertOutcome[] => {
  const all = (outcome: InsertOutcome) => Array.from({ length: count }, () => outcome)
  if (error === undefined) return all({ kind: 'stored' })
  const writeErrors = error instanceof MongoBulkWriteError ? [error.writeErrors].flat() : []
  if (writeErrors.length === 0) return all({ kind: 'failed', error })
  const concern = (error as MongoBulkWriteError).result.getWriteConcernError()
  const perDoc = all(
    concern === undefined ? { kind: 'stored' } : failed('write concern error', concern),
  )
  for (const writeError of writeErrors)
    perDoc[writeError.index] = isDuplicateKey(writeError)
      ? { kind: 'taken' }
      : failed('write error', writeError)
  return perDoc
}
