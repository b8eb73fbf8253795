import * as TE from 'fp-ts/lib/TaskEither.js'
import { createInMemoryPetStore } from '../../adapters/in-memory/index.js'
import { storeUnavailable, type PetStore } from '../../core/index.js'

/**
 * A store whose every call fails with StoreUnavailable: every function of the port, taken from
 * an adapter, so a function added to the port needs no edit here.
 */
export const downStore = (cause = 'connection refused'): PetStore =>
  Object.fromEntries(
    Object.keys(createInMemoryPetStore()).map((name) => [
      name,
      () => TE.left(storeUnavailable(cause)),
    ]),
  ) as unknown as PetStore
