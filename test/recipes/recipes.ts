import type { Step } from './scratch.js'

/**
 * The steps of each recipe of docs/contributing.md ("How to change it"), as the edits a person
 * following it would make. The test applies them to a copy of the tree and checks what the page
 * says follows; when the code moves, an anchor stops matching and the recipe must be updated.
 */

/** Add an optional Pet field: one codec in NEW_PET_OPTIONAL. */
export const ADD_FIELD: ReadonlyArray<Step> = [
  {
    file: 'core/domain/new-pet.ts',
    replace: 'export const NEW_PET_OPTIONAL = { status: PetStatusField }',
    text: 'export const NEW_PET_OPTIONAL = { status: PetStatusField, tag: PetName }',
  },
]

/** The files the compiler then flags, and nothing else: each is typed over every field. */
export const FIELD_FLAGS = [
  'adapters/koa/app/openapi/schemas.ts',
  'adapters/testing/arbitraries.ts',
  'core/json/write.ts',
]

/** Add an endpoint: its operation, its use case, its route, and the route in the table. */
export const ADD_ENDPOINT: ReadonlyArray<Step> = [
  {
    file: 'core/api/operations.ts',
    after: 'export const OPERATIONS = {\n',
    text: `  getPetName: {
    operationId: 'getPetName',
    method: 'GET',
    path: '/pets/{petId}/name',
    scope: 'pets:read',
    success: 200,
  },
`,
  },
  {
    create: 'core/use-cases/get-pet-name.ts',
    text: `import * as E from 'fp-ts/lib/Either.js'
import * as O from 'fp-ts/lib/Option.js'
import * as TE from 'fp-ts/lib/TaskEither.js'
import { pipe } from 'fp-ts/lib/function.js'
import { decodeWith } from '../domain/decode.js'
import { petNotFound } from '../domain/errors.js'
import { PetIdParam } from '../domain/pet.js'
import type { PetStore } from '../ports/pet-store.js'

const decodePetId = decodeWith(PetIdParam, 'petId')

/** The name of one animal. */
export const getPetName = (deps: Pick<PetStore, 'findPet'>) => (petId: unknown) => {
  const id = decodePetId(petId)
  if (E.isLeft(id)) return TE.left(id.left)
  return pipe(
    deps.findPet(id.right),
    TE.chainW(O.match(() => TE.left(petNotFound(id.right)), (pet) => TE.right(pet.name))),
  )
}
`,
  },
  {
    file: 'core/index.ts',
    after: "export { getPet, type GetPetDeps } from './use-cases/get-pet.js'\n",
    text: "export { getPetName } from './use-cases/get-pet-name.js'\n",
  },
  {
    create: 'adapters/koa/app/routes/get-pet-name.ts',
    text: `import { getPetName, OPERATIONS } from '../../../../core/index.js'
import { param } from './operation-text.js'
import type { Route } from './route.js'

export const getPetNameRoute: Route = {
  ...OPERATIONS.getPetName,
  errors: ['BadRequest', 'NotFound'],
  document: () => ({
    summary: "An animal's name",
    description: 'The name alone, as a JSON object.',
    parameters: [param('petId')],
    responses: { '200': { description: 'The name.' } },
  }),
  handler: ({ store, respond }) => {
    const get = getPetName(store)
    return (ctx) =>
      respond.runTask(ctx, get(ctx.params.petId), (name) =>
        respond.json(ctx, 200, JSON.stringify({ name })),
      )
  },
}
`,
  },
  {
    file: 'adapters/koa/app/routes/index.ts',
    after: "import { getPetRoute } from './get-pet.js'\n",
    text: "import { getPetNameRoute } from './get-pet-name.js'\n",
  },
  {
    file: 'adapters/koa/app/routes/index.ts',
    after: '  getPetRoute,\n',
    text: '  getPetNameRoute,\n',
  },
]

/** Add a store adapter: the adapter, its contract test, and its entry among the test backends. */
export const ADD_STORE: ReadonlyArray<Step> = [
  {
    create: 'adapters/linear/pet-store.ts',
    text: `import * as O from 'fp-ts/lib/Option.js'
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
  },
  {
    create: 'test/adapters/linear/pet-store.test.ts',
    text: `import { createLinearPetStore } from '../../../adapters/linear/pet-store.js'
import { petStoreContract } from '../../../adapters/testing/index.js'

petStoreContract('linear', async () => ({ store: createLinearPetStore(), dispose: async () => {} }), {
  properties: 20,
})
`,
  },
  {
    file: 'test/support/backends.ts',
    after: 'const OPENERS = {\n',
    text: '  linear: async () => processLocalStorage(createLinearPetStore()),\n',
  },
  {
    file: 'test/support/backends.ts',
    replace: "import { inMemoryStorage, type Storage } from '../../apps/server/storage.js'",
    text: `import { createLinearPetStore } from '../../adapters/linear/pet-store.js'
import { inMemoryStorage, processLocalStorage, type Storage } from '../../apps/server/storage.js'`,
  },
]

/** Add a setting (a list-size one): its Config field, its read line, and where it takes effect. */
export const ADD_SETTING: ReadonlyArray<Step> = [
  {
    file: 'apps/server/config.ts',
    after: '  readonly maxPets: number\n',
    text: '  /** The largest page a listing serves. */\n  readonly listLimitMax: number\n',
  },
  {
    file: 'apps/server/config.ts',
    after: "    retryAfterSeconds: read('RETRY_AFTER_SECONDS', integerFrom(1, 3600), 2),\n",
    text: "    listLimitMax: read('LIST_LIMIT_MAX', integerFrom(LIST_LIMITS.min, 10_000), LIST_LIMITS.max),\n",
  },
  {
    file: 'apps/server/config.ts',
    replace: "import { GET_PET_DEPRECATION } from '../../core/index.js'",
    text: "import { GET_PET_DEPRECATION, LIST_LIMITS } from '../../core/index.js'",
  },
  {
    file: 'apps/server/api-options.ts',
    replace: '  listLimits: LIST_LIMITS,\n',
    text: '  listLimits: { ...LIST_LIMITS, max: config.listLimitMax },\n',
  },
]
