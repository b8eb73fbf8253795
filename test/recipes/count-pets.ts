import type { Entry } from './entries.js'

/**
 * "Adding an operation" of docs/contributing.md, followed for a deliberately fictional one,
 * `GET /pet-count` (countPets): the files it writes from templates, the two entries it declares,
 * then the entries the compiler asks for. Entries are found by the name of the record that holds
 * them, so the recipe keeps working while those records change around it.
 */

/** New files: the use case, the route, and the store method's HTTP test (written last). */
export const NEW_FILES = {
  'core/use-cases/count-pets.ts': `import type * as TE from 'fp-ts/lib/TaskEither.js'
import type { StoreUnavailable } from '../domain/errors.js'
import type { PetStore } from '../ports/pet-store.js'

/** How many animals the store holds. */
export const countPets =
  (deps: Pick<PetStore, 'countPets'>) => (): TE.TaskEither<StoreUnavailable, number> =>
    deps.countPets()
`,
  'adapters/koa/app/routes/count-pets.ts': `import { countPets, OPERATIONS } from '../../../../core/index.js'
import { noContentResponse } from './operation-text.js'
import type { Route } from './route.js'

const count = { type: 'object', properties: { count: { type: 'integer', minimum: 0 } } }

export const countPetsRoute: Route<'countPets'> = {
  ...OPERATIONS.countPets,
  document: () => ({
    summary: 'Count animals',
    description: 'How many animals the store holds.',
    responses: {
      [OPERATIONS.countPets.success]: {
        ...noContentResponse('The count.'),
        content: { 'application/json': { schema: count } },
      },
    },
  }),
  handler: ({ store, respond }) => {
    const countAll = countPets(store)
    return (ctx) =>
      respond.runTask(ctx, countAll(), (n) =>
        respond.json(ctx, OPERATIONS.countPets.success, JSON.stringify({ count: n })),
      )
  },
}
`,
}

export const HTTP_TEST = {
  'test/adapters/koa/count-pets.test.ts': `import { expect } from 'chai'
import { createClient } from '../../../adapters/http-client/index.js'
import { startTestApi, TEST_KEY, type TestApi } from '../../support/app.js'
import { forEachBackend } from '../../support/backends.js'

forEachBackend('HTTP: GET /v1/pet-count', (backend) => {
  let api: TestApi
  before(async () => (api = await startTestApi({ backend })))
  after(() => api.close())

  it('counts the pets the store holds, called by the client', async () => {
    const client = createClient({ baseUrl: \`http://127.0.0.1:\${api.port}/v1\`, apiKey: TEST_KEY })
    const before = (await client.countPets()).count
    await client.createPet({ name: 'Rex', categoryId: 1n })
    await client.createPet({ name: 'Tom', categoryId: 2n })
    expect((await client.countPets()).count).to.equal(before + 2n)
  })
})
`,
}

/** Appended: the use case's export. */
export const APPENDS: ReadonlyArray<readonly [string, string]> = [
  ['core/index.ts', "export { countPets } from './use-cases/count-pets.js'\n"],
]

/** What the change declares: the operation, and the store's new function. */
export const DECLARED: ReadonlyArray<Entry> = [
  {
    file: 'core/api/operations.ts',
    into: 'OPERATIONS',
    member:
      "countPets: { operationId: 'countPets', method: 'GET', path: '/pet-count', scope: 'pets:read', success: 200 }",
  },
  {
    file: 'core/ports/pet-store.ts',
    into: 'PetStore',
    member: 'readonly countPets: () => TE.TaskEither<StoreUnavailable, number>',
  },
]

/** The entries the compiler then asks for, each in the record it names. */
export const NAMED: ReadonlyArray<Entry> = [
  {
    file: 'adapters/koa/app/routes/index.ts',
    into: 'ROUTES',
    member: 'countPets: countPetsRoute',
    imports: ["import { countPetsRoute } from './count-pets.js'"],
  },
  {
    file: 'adapters/http-client/calls.ts',
    into: 'Calls',
    member:
      '/** How many pets the store holds. */\nreadonly countPets: (options?: CallOptions) => Result<{ readonly count: bigint }>',
  },
  {
    file: 'adapters/http-client/calls.ts',
    into: 'createCalls',
    statement: `const countPets = (options: CallOptions = {}) =>
  call(OPERATIONS.countPets, pathOf(OPERATIONS.countPets.path, {}), options, decodeAnswer('countPets'))`,
    member: 'countPets',
  },
  {
    file: 'adapters/http-client/answers.ts',
    into: 'ANSWER_BODIES',
    member: "countPets: json(t.type({ count: t.bigint }), 'count')",
  },
  {
    file: 'adapters/in-memory/pet-store.ts',
    into: 'createInMemoryPetStore',
    member: 'countPets: () => TE.right(all.length)',
  },
  {
    file: 'adapters/mongodb/pet-store.ts',
    into: 'createMongoPetStore',
    statement: `const countPets = () =>
  bounded((deadline) => pets.countDocuments({}, { maxTimeMS: deadline.check() }))`,
    member: 'countPets',
  },
  { file: 'adapters/prometheus/store-metrics.ts', into: 'OPERATIONS', member: "'countPets'" },
  {
    file: 'adapters/prometheus/store-metrics.ts',
    into: 'measureStore',
    member: "countPets: measured('countPets', store.countPets)",
  },
  {
    file: 'apps/server/tracing/store-spans.ts',
    into: 'tracePetStore',
    member: "countPets: traced('countPets', store.countPets)",
  },
]
