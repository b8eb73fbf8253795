import * as TE from 'fp-ts/lib/TaskEither.js'
import { silentLogger, type CheckReadiness, type PetStore } from '../../../core/index.js'
import type { KoaAppDeps } from './koa-app-inputs.js'

/**
 * Readiness as the store itself tells it: it reads a page of one pet, so a store that cannot
 * read answers 503 with its own error. Every store can tell this way, an embedder's included,
 * without a member added to the PetStore port (which would break every store written before).
 */
export const storeReadiness =
  (store: Pick<PetStore, 'listPetPage'>): CheckReadiness =>
  () =>
    TE.asUnit(store.listPetPage({ limit: 1 }))

/** The deps with a default in place of each one left out (see KoaAppDeps). */
export const koaAppDepsOf = (deps: KoaAppDeps) => ({
  ...deps,
  logger: deps.logger ?? silentLogger,
  now: deps.now ?? Date.now,
  checkReadiness: deps.checkReadiness ?? storeReadiness(deps.store),
})
