import type { ApiSettings } from '../api-settings.js'
import type { Route } from '../routes/route.js'
import type { HeaderName } from '../../response/header-names.js'
import { headerRef } from '../routes/operation-text.js'
import { errorResponses } from './responses.js'

const DEPRECATION_HEADERS: ReadonlyArray<HeaderName> = ['Deprecation', 'Sunset', 'Link']

/** The OpenAPI operation of a route: its own text, its scope, and every answer it can give. */
const operationOf = (route: Route, settings: ApiSettings) => {
  const { responses, ...rest } = route.document(settings)
  const extra = route.deprecation === undefined ? [] : DEPRECATION_HEADERS
  const success = Object.fromEntries(
    Object.entries(responses as Record<string, { headers?: object }>).map(([status, answer]) => [
      status,
      extra.length === 0 ? answer : withHeaders(answer, extra),
    ]),
  )
  return {
    operationId: route.operationId,
    ...(route.deprecation === undefined ? {} : { deprecated: true }),
    security: [{ bearerAuth: [route.scope] }],
    ...rest,
    responses: {
      ...success,
      ...errorResponses(
        [
          'Unauthorized',
          'Forbidden',
          'TooManyRequests',
          ...route.errors,
          'Internal',
          'Unavailable',
        ],
        extra,
      ),
    },
  }
}

const withHeaders = (answer: { headers?: object }, names: ReadonlyArray<HeaderName>) => ({
  ...answer,
  headers: {
    ...answer.headers,
    ...Object.fromEntries(names.map((name) => [name, headerRef(name)])),
  },
})

/** The `paths` of the OpenAPI document, grouped by path as OpenAPI wants them. */
export const openApiPaths = (settings: ApiSettings, routes: ReadonlyArray<Route>) => {
  const paths: Record<string, Record<string, unknown>> = {}
  for (const route of routes)
    paths[route.path] = {
      ...paths[route.path],
      [route.method.toLowerCase()]: operationOf(route, settings),
    }
  return paths
}
