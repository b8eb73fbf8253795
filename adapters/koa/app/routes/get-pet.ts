import { getPet, OPERATIONS } from '../../../../core/index.js'
import { deprecationWording, goneDetail } from '../deprecation.js'
import { jsonResponse, param } from './operation-text.js'
import { answerInForm } from '../../response/answer/index.js'
import { writePetJsonInt64Strings } from '../json/pet-json.js'
import type { Route } from './route.js'

export const getPetRoute: Route<'getPet'> = {
  ...OPERATIONS.getPet,
  document: ({ deprecation }) => ({
    summary: 'Get one animal (deprecated)',
    description: deprecationWording(deprecation, OPERATIONS.getPet.deprecation),
    parameters: [param('petId')],
    responses: { [OPERATIONS.getPet.success]: jsonResponse('The animal.', 'Pet') },
  }),
  handler: ({ store, publicBase, deprecation, respond, now, petJson }) => {
    const get = getPet(store)
    const sunsetAt = deprecation.sunsetAt.getTime()
    // Where the client reaches the API, as the successor Link names it (mounted, say).
    const gone = (ctx: Parameters<typeof publicBase>[0]) =>
      ({
        _tag: 'Gone',
        detail: goneDetail(publicBase(ctx), OPERATIONS.getPet.deprecation),
      }) as const
    return (ctx) =>
      now() >= sunsetAt
        ? respond.problem(ctx, gone(ctx))
        : respond.runTask(ctx, get(ctx.params.petId), (pet) =>
            answerInForm(
              ctx,
              OPERATIONS.getPet.success,
              pet,
              petJson.pet,
              writePetJsonInt64Strings,
            ),
          )
  },
}
