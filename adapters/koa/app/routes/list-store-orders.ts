import { OPERATIONS } from '../../../../core/index.js'
import type { Route } from './route.js'

/** Part of the wider interface, but unspecified: known, authenticated, not implemented. */
export const listStoreOrdersRoute: Route<'listStoreOrders'> = {
  ...OPERATIONS.listStoreOrders,
  document: () => ({
    summary: 'Store orders (not available)',
    description:
      'Part of the wider interface; its fields are not specified, so it answers 501 after authentication.',
    responses: {},
  }),
  handler:
    ({ respond }) =>
    (ctx) =>
      respond.problem(ctx, { _tag: 'NotImplemented' }),
}
