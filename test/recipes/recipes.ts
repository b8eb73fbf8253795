import type { Entry } from './entries.js'

/**
 * The recipes of docs/contributing.md ("How to change it") but the operation's (count-pets.ts),
 * as the entries a person following them would add, each found by the name of the record that
 * holds it. The test applies them to a copy of the tree and checks what the page says follows.
 */

/** Add an optional Pet field: one codec in NEW_PET_OPTIONAL. */
export const ADD_FIELD: ReadonlyArray<Entry> = [
  { file: 'core/domain/new-pet.ts', into: 'NEW_PET_OPTIONAL', member: 'tag: PetName' },
]

/** The files the compiler then flags, and nothing else: each is typed over every field. */
export const FIELD_FLAGS = [
  'adapters/koa/app/openapi/schemas.ts',
  'adapters/testing/arbitraries.ts',
  'core/json/write.ts',
  'test/support/largest-answer.ts',
]

/** Add a store adapter: the adapter and its contract test, new files. */
export const NEW_STORE_FILES: Readonly<Record<string, string>> = {
  'adapters/linear/pet-store.ts': `import * as O from 'fp-ts/lib/Option.js'
import * as TE from 'fp-ts/lib/TaskEither.js'
import type { Pet, PetId, PetStore } from '../../core/index.js'

/** Pets in one array, searched from the start: simple, and slow past a few thousand. */
export const createLinearPetStore = (): PetStore => {
  const pets: Pet[] = []
  const byOp = new Map<string, Pet>()
  return {
    insertPet: (newPet, op) => {
      const earlier = op === undefined ? undefined : byOp.get(op)
      if (earlier !== undefined) return TE.right(earlier)
      const pet = { ...newPet, id: BigInt(pets.length + 1) as PetId }
      pets.push(pet)
      if (op !== undefined) byOp.set(op, pet)
      return TE.right(pet)
    },
    findPet: (id) => TE.right(O.fromNullable(pets.find((pet) => pet.id === id))),
    listPetPage: ({ status, after, limit }) =>
      TE.right(
        pets
          .filter((pet) => (status === undefined || pet.status === status) && pet.id > (after ?? 0n))
          .slice(0, limit),
      ),
  }
}
`,
  'test/adapters/linear/pet-store.test.ts': `import { createLinearPetStore } from '../../../adapters/linear/pet-store.js'
import { petStoreContract } from '../../../adapters/testing/index.js'

petStoreContract('linear', async () => ({ store: createLinearPetStore(), dispose: async () => {} }), {
  properties: 20,
})
`,
}

/** ...and its entry among the test backends. */
export const ADD_STORE: ReadonlyArray<Entry> = [
  {
    file: 'test/support/backends.ts',
    into: 'OPENERS',
    member: 'linear: async () => processLocalStorage(createLinearPetStore())',
    imports: ["import { createLinearPetStore } from '../../adapters/linear/pet-store.js'"],
  },
]

/** Add a setting (a list-size one): its Config field, its read line, and where it takes effect. */
export const ADD_SETTING: ReadonlyArray<Entry> = [
  {
    file: 'apps/server/config.ts',
    into: 'Config',
    member: '/** The largest page a listing serves. */\nreadonly listLimitMax: number',
  },
  {
    file: 'apps/server/config.ts',
    into: 'fields',
    member:
      "listLimitMax: read('LIST_LIMIT_MAX', integerFrom(LIST_LIMITS.min, 10_000), LIST_LIMITS.max)",
    imports: ["import { LIST_LIMITS } from '../../core/index.js'"],
  },
  {
    file: 'apps/server/api-options.ts',
    into: 'apiOptionsOf',
    replaces: 'listLimits',
    member: 'listLimits: { ...LIST_LIMITS, max: config.listLimitMax }',
  },
]
