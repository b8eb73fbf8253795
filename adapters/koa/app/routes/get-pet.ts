import { getPet, OPERATIONS } from '../../../../core/index.js'
import { deprecationWording, goneDetail } from '../deprecation.js'
import { jsonResponse } from '../openapi/responses.js'
import { param } from '../openapi/schemas.js'
import { answerInForm } from '../json/int64-form.js'
import { petJson, writePetJsonInt64Strings } from '../json/pet-json.js'
import type { Route } from './route.js'

export const getPetRoute: Route = {
  ...OPERATIONS.getPet,
  errors: ['BadRequest', 'NotFound', 'Gone'],
  document: ({ deprecation }) => ({
    summary: 'Get one animal (deprecated)',
    description: deprecationWording(deprecation, OPERATIONS.getPet.deprecation),
    parameters: [param('petId')],
    responses: { [OPERATIONS.getPet.success]: jsonResponse('The animal.', 'Pet') },
  }),
  handler: ({ store, basePath, deprecation, respond, now }) => {
    const get = getPet(store)
    const sunsetAt = deprecation.sunsetAt.getTime()
    const gone = {
      _tag: 'Gone',
      detail: goneDetail(basePath, OPERATIONS.getPet.deprecation),
    } as const
    return (ctx) =>
      now() >= sunsetAt
        ? respond.problem(ctx, gone)
        : respond.task(ctx, get(ctx.params.petId), (pet) =>
            answerInForm(ctx, OPERATIONS.getPet.success, pet, petJson, writePetJsonInt64Strings),
          )
  },
}
