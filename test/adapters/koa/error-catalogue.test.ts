import { expect } from 'chai'
import type * as TE from 'fp-ts/lib/TaskEither.js'
import { createInMemoryPetStore } from '../../../adapters/in-memory/index.js'
import { openApiDocument, ROUTES, type Route } from '../../../adapters/koa/index.js'
import type { RouteProblem } from '../../../adapters/koa/app/routes/route.js'
import type { ProblemAnswering } from '../../../adapters/koa/response/problem.js'
import {
  ERROR_CATALOGUE,
  ERROR_CODES,
  errorCodesOf,
  getPet,
  OPERATIONS,
  type OperationErrorCode,
  type Pet,
} from '../../../core/index.js'
import { testApiOptions } from '../../support/app.js'

/** The catalogue with `not_found` answered by no operation. */
type WithoutNotFound = Omit<typeof ERROR_CATALOGUE, 'not_found'> & {
  readonly not_found: { readonly status: 404; readonly when: string; readonly operations: [] }
}

type Doc = {
  paths: Record<string, Record<string, { operationId: string; responses: Record<string, object> }>>
}

describe('The error catalogue, as the compiler and the document read it', () => {
  it('refuses, at compile time, errors written on a route of the interface', () => {
    // @ts-expect-error its answers come from the catalogue (typecheck fails if this compiles)
    const route: Route<'getPet'> = { ...ROUTES.getPet, errors: [] }
    expect(route.operationId).to.equal('getPet')
  })

  it("types a route's answers by the catalogue: a use case's error it does not list fails to compile", async () => {
    const find = getPet(createInMemoryPetStore())
    const answered: TE.TaskEither<RouteProblem<'getPet'>, Pet> = find(1n)
    type Narrower = ProblemAnswering<OperationErrorCode<'getPet', WithoutNotFound>>
    // @ts-expect-error getPet's PetNotFound is answered by a code that catalogue does not give it
    const refused: TE.TaskEither<Narrower, Pet> = find(1n)
    const result = await answered()
    expect(result).to.deep.include({ _tag: 'Left', left: { _tag: 'PetNotFound', id: 1n } })
    expect(refused).to.be.a('function')
  })

  it('documents on each operation exactly the codes the catalogue gives it, by status', () => {
    const doc = openApiDocument({ ...testApiOptions(), servers: [] }) as unknown as Doc
    for (const operation of Object.values(OPERATIONS)) {
      const documented = doc.paths[operation.path]?.[operation.method.toLowerCase()]
      const errors = Object.entries(documented?.responses ?? {}).filter(([s]) => Number(s) >= 400)
      const codes = errors.flatMap(([status, answer]) =>
        [...JSON.stringify(answer).matchAll(/`(\w+)`/g)]
          .map(([, code]) => code as keyof typeof ERROR_CODES)
          .filter((code) => code in ERROR_CODES && ERROR_CODES[code] === Number(status)),
      )
      expect([...new Set(codes)].sort(), operation.operationId).to.deep.equal(
        [...errorCodesOf(operation.operationId)].sort(),
      )
    }
  })
})
