import { parse as parseQuery } from 'node:querystring'
import * as O from 'fp-ts/lib/Option.js'
import { listPetsFromUnknown, OPERATIONS, type ListPetsQuery } from '../../../../core/index.js'
import { answerInForm, setHeader } from '../../response/answer/index.js'
import { jsonResponse, param } from './operation-text.js'
import { petsJsonInt64Strings } from '../json/pet-json.js'
import type { Route } from './route.js'

/**
 * The `next` link keeps the body a plain array (RFC 8288); `after` is the last id shown. Every
 * value in it was decoded (an integer, a status from the enum), so nothing needs escaping.
 */
const nextLink = (base: string, { limit, status, after }: ListPetsQuery): string =>
  `<${base}/pets?limit=${limit}${status === undefined ? '' : `&status=${status}`}${
    after === undefined ? '' : `&after=${after}`
  }>; rel="next"`

export const listPetsRoute: Route<'listPets'> = {
  ...OPERATIONS.listPets,
  document: ({ listLimits }) => ({
    summary: 'List animals',
    description: `Animals in ascending id order, at most \`limit\` (default ${listLimits.default}). When more exist, \`Link: <...>; rel="next"\` gives the next page; the body stays a plain array. Unknown, empty or repeated parameters are refused with 400.`,
    parameters: [param('limit'), param('status'), param('after')],
    responses: {
      [OPERATIONS.listPets.success]: jsonResponse('A page of animals.', 'Pets', ['Link']),
    },
  }),
  handler: ({ store, publicBase, listLimits, respond, petJson }) => {
    const list = listPetsFromUnknown({ listPetPage: store.listPetPage, listLimits })
    // node:querystring rather than ctx.query: Koa 3's getter goes through URLSearchParams, which
    // costs more. Both give arrays for repeated names (refused by the codec).
    // maxKeys 0: every pair is parsed (its default stops at 1,000 and drops the rest silently);
    // the header size limit (16 KiB) bounds the work.
    return (ctx) =>
      respond.runTask(ctx, list(parseQuery(ctx.querystring, '&', '=', { maxKeys: 0 })), (page) => {
        if (O.isSome(page.next)) setHeader(ctx, 'Link', nextLink(publicBase(ctx), page.next.value))
        answerInForm(
          ctx,
          OPERATIONS.listPets.success,
          page.pets,
          petJson.pets,
          petsJsonInt64Strings,
        )
      })
  },
}
