import type { ApiSettings } from '../api-settings.js'
import type { AnswerText, Route, SharedParameter } from '../routes/route.js'
import { errorResponses, jsonResponse, noContentResponse, type HeaderName } from './responses.js'
import { param } from './schemas.js'

const DEPRECATION_HEADERS: ReadonlyArray<HeaderName> = ['Deprecation', 'Sunset', 'Link']

/** The success response: with its body's schema, or without a body. */
const successOf = (answer: AnswerText, extra: ReadonlyArray<HeaderName>) => {
  const headers = [...(answer.headers ?? []), ...extra]
  const response =
    answer.body === undefined
      ? noContentResponse(answer.description, headers)
      : jsonResponse(answer.description, answer.body, headers)
  return answer.links === undefined ? response : { ...response, links: answer.links }
}

const parameterOf = (p: SharedParameter | object) => (typeof p === 'string' ? param(p) : p)

/** The OpenAPI operation of a route: its own text, its scope, and every answer it can give. */
const operationOf = (route: Route, settings: ApiSettings) => {
  const { answer, ...rest } = route.document(settings)
  const extra = route.deprecation === undefined ? [] : DEPRECATION_HEADERS
  return {
    operationId: route.operationId,
    ...(route.deprecation === undefined ? {} : { deprecated: true }),
    security: [{ bearerAuth: [route.scope] }],
    ...rest,
    ...(rest.parameters === undefined ? {} : { parameters: rest.parameters.map(parameterOf) }),
    responses: {
      ...(answer === undefined ? {} : { [route.success]: successOf(answer, extra) }),
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
