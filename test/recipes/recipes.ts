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
    after: '      API_SETTING_DEFAULTS.retryAfterSeconds,\n    ),\n',
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

/** Add an operation, step 1: its entry in OPERATIONS, after which the compiler names the rest. */
export const ADD_OPERATION_ENTRY: ReadonlyArray<Step> = [
  {
    file: 'core/api/operations.ts',
    after: 'export const OPERATIONS = {\n',
    text: `  deletePet: {
    operationId: 'deletePet',
    method: 'DELETE',
    path: '/pets/{petId}',
    scope: 'pets:write',
    success: 204,
  },
`,
  },
]

/** The files the compiler flags after that one entry: the route, the client call, the decoder. */
export const OPERATION_FLAGS = [
  'adapters/http-client/answers.ts',
  'adapters/http-client/calls.ts',
  'adapters/koa/app/routes/index.ts',
]

/** The rest of the recipe: storage, use case, route, client, contract and an HTTP test. */
export const ADD_OPERATION_REST: ReadonlyArray<Step> = [
  {
    file: 'core/ports/pet-store.ts',
    replace: '/** The storage port.',
    text: `/** Removes the pet with this id: true if there was one. Its id is never given again. */
export type RemovePet = (id: PetId) => TE.TaskEither<StoreUnavailable, boolean>

/** The storage port.`,
  },
  {
    file: 'core/ports/pet-store.ts',
    after: '  readonly listPetPage: ListPetPage\n',
    text: '  readonly removePet: RemovePet\n',
  },
  {
    create: 'core/use-cases/delete-pet.ts',
    text: `import * as E from 'fp-ts/lib/Either.js'
import * as TE from 'fp-ts/lib/TaskEither.js'
import { pipe } from 'fp-ts/lib/function.js'
import { decodeWith } from '../domain/decode.js'
import { petNotFound } from '../domain/errors.js'
import { PetIdParam } from '../domain/pet.js'
import type { PetStore } from '../ports/pet-store.js'

const decodePetId = decodeWith(PetIdParam, 'petId')

/** Removes one animal; one that does not exist is PetNotFound. */
export const deletePet = (deps: Pick<PetStore, 'removePet'>) => (petId: unknown) => {
  const id = decodePetId(petId)
  if (E.isLeft(id)) return TE.left(id.left)
  return pipe(
    deps.removePet(id.right),
    TE.chainW((removed) => (removed ? TE.right(undefined) : TE.left(petNotFound(id.right)))),
  )
}
`,
  },
  {
    file: 'core/index.ts',
    after: "export { getPet, type GetPetDeps } from './use-cases/get-pet.js'\n",
    text: "export { deletePet } from './use-cases/delete-pet.js'\n",
  },
  {
    file: 'adapters/in-memory/pet-store.ts',
    after: '  return {\n    insertPet,\n',
    text: `    removePet: (id) => {
      const pet = id >= 1n && id <= lastId ? byId[Number(id) - 1] : undefined
      if (pet === undefined) return TE.right(false)
      byId[Number(id) - 1] = undefined
      const drop = (list: Pet[]) => list.splice(firstAfter(list, id - 1n), 1)
      drop(all)
      if (pet.status !== undefined) drop(byStatus.get(pet.status) ?? [])
      return TE.right(true)
    },
`,
  },
  {
    file: 'adapters/mongodb/pet-store.ts',
    replace: '  return { insertPet, findPet, listPetPage }',
    text: `  const removePet = (id: bigint) =>
    bounded(async (deadline) => {
      const done = await pets.deleteOne({ _id: id }, { maxTimeMS: deadline.check() })
      return done.deletedCount === 1
    })

  return { insertPet, findPet, listPetPage, removePet }`,
  },
  {
    file: 'adapters/prometheus/store-metrics.ts',
    replace: "const OPERATIONS = ['insertPet', 'findPet', 'listPetPage'] as const",
    text: "const OPERATIONS = ['insertPet', 'findPet', 'listPetPage', 'removePet'] as const",
  },
  {
    file: 'adapters/prometheus/store-metrics.ts',
    after: "    listPetPage: measured('listPetPage', store.listPetPage),\n",
    text: "    removePet: measured('removePet', store.removePet),\n",
  },
  {
    create: 'adapters/koa/app/routes/delete-pet.ts',
    text: `import { deletePet, OPERATIONS } from '../../../../core/index.js'
import { noContentResponse, param } from './operation-text.js'
import type { Route } from './route.js'

export const deletePetRoute: Route<'deletePet'> = {
  ...OPERATIONS.deletePet,
  errors: ['BadRequest', 'NotFound'],
  document: () => ({
    summary: 'Remove an animal',
    description: 'Removes the animal; its id is never given to another.',
    parameters: [param('petId')],
    responses: { [OPERATIONS.deletePet.success]: noContentResponse('Removed.') },
  }),
  handler: ({ store, respond }) => {
    const remove = deletePet(store)
    return (ctx) =>
      respond.runTask(ctx, remove(ctx.params.petId), () =>
        respond.empty(ctx, OPERATIONS.deletePet.success),
      )
  },
}
`,
  },
  {
    file: 'adapters/koa/app/routes/index.ts',
    after: "import { createPetRoute } from './create-pet.js'\n",
    text: "import { deletePetRoute } from './delete-pet.js'\n",
  },
  {
    file: 'adapters/koa/app/routes/index.ts',
    after: '  listStoreOrders: listStoreOrdersRoute,\n',
    text: '  deletePet: deletePetRoute,\n',
  },
  {
    file: 'adapters/http-client/calls.ts',
    after: '  readonly getPet: (id: bigint, options?: CallOptions) => Result<Pet>\n',
    text: '  /** Removes a pet; one that does not exist rejects with `not_found`. */\n  readonly deletePet: (id: bigint, options?: CallOptions) => Result<undefined>\n',
  },
  {
    file: 'adapters/http-client/calls.ts',
    replace: '  return { listPets, createPet, getPet }',
    text: `  const deletePet = (id: bigint, options: CallOptions = {}): Result<undefined> => {
    const path = pathOf(OPERATIONS.deletePet.path, { petId: String(id) })
    return call(OPERATIONS.deletePet, path, options, decodeAnswer('deletePet'))
  }

  return { listPets, createPet, getPet, deletePet }`,
  },
  {
    file: 'adapters/http-client/answers.ts',
    after: "  getPet: json(Pet, 'pet'),\n",
    text: "  deletePet: 'none',\n",
  },
  {
    file: 'adapters/testing/pet-store-basics.ts',
    replace: "  it('serves pages as large as the service asks for",
    text: `  it('removes a pet: found and listed no more, its id never given again', async () => {
    const [gone, kept] = (await insertAll([
      { name: 'a', categoryId: 1n, status: 'available' },
      { name: 'b', categoryId: 1n },
    ] as NewPet[])) as [Pet, Pet]
    assert.equal(await ok(store().removePet(gone.id)), true)
    assert.equal(await ok(store().removePet(gone.id)), false)
    assert.deepEqual(await ok(store().findPet(gone.id)), O.none)
    assert.deepEqual(await ok(store().listPetPage({ limit: 10 })), [kept])
    assert.deepEqual(await ok(store().listPetPage({ limit: 10, status: 'available' })), [])
    const next = await ok(store().insertPet({ name: 'c', categoryId: 1n } as NewPet))
    assert.ok(next.id > kept.id)
  })

  it('serves pages as large as the service asks for`,
  },
  {
    create: 'test/adapters/koa/delete-pet.test.ts',
    text: `import { expect } from 'chai'
import { createClient } from '../../../adapters/http-client/index.js'
import { startTestApi, TEST_KEY, type TestApi } from '../../support/app.js'

describe('HTTP: DELETE /v1/pets/{petId}', () => {
  let api: TestApi
  before(async () => (api = await startTestApi()))
  after(() => api.close())

  it('removes a pet, called by the client, and is documented', async () => {
    const client = createClient({ baseUrl: \`http://127.0.0.1:\${api.port}/v1\`, apiKey: TEST_KEY })
    const pet = await client.createPet({ name: 'Rex', categoryId: 1n })
    expect(await client.deletePet(pet.id)).to.equal(undefined)
    const again = await client.deletePet(pet.id).catch((error: unknown) => error)
    expect(again).to.deep.include({ code: 'not_found', status: 404 })
    const doc = (await api.request({ path: '/v1/openapi.json' })).json as {
      paths: Record<string, { delete?: { responses: Record<string, { content?: unknown }> } }>
    }
    const answer = doc.paths['/pets/{petId}']?.delete?.responses['204']
    expect(answer).to.not.equal(undefined)
    expect(answer?.content).to.equal(undefined)
  })
})
`,
  },
]
