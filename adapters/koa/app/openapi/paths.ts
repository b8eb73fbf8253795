import type { ApiSettings } from '../api-settings.js'
import type { Route } from '../routes/route.js'
import type { HeaderName } from '../../response/header-names.js'
import { headerRef } from '../routes/operation-text.js'
import { errorResponses, routeErrorCodes } from './responses.js'
import { INT64_STRING_TYPE } from '../../request/int64-form.js'
import { STRING_FORMS } from './schemas.js'

const DEPRECATION_HEADERS: ReadonlyArray<HeaderName> = ['Deprecation', 'Sunset', 'Link']

/** The group a generator files an operation under: the first segment of its path (`pets`). */
export const tagOf = (path: string): string => path.split('/')[1] ?? ''

type Body = { readonly content?: Readonly<Record<string, { schema?: { $ref?: string } }>> }

/** A body with int64 fields gets its string form beside it, as a media type of its own. */
const withStringForm = <B extends Body>(body: B): B => {
  const name = body.content?.['application/json']?.schema?.$ref?.split('/').at(-1) ?? ''
  const form = STRING_FORMS[name]
  if (form === undefined) return body
  const schema = { $ref: `#/components/schemas/${form}` }
  return { ...body, content: { ...body.content, [INT64_STRING_TYPE]: { schema } } }
}

const eachWithStringForm = (answers: Readonly<Record<string, Body>>) =>
  Object.fromEntries(Object.entries(answers).map(([status, a]) => [status, withStringForm(a)]))

/** The OpenAPI operation of a route: its own text, its scope, and every answer it can give. */
const operationOf = (route: Route, settings: ApiSettings) => {
  const { responses, requestBody, ...rest } = route.document(settings)
  const extra = route.deprecation === undefined ? [] : DEPRECATION_HEADERS
  const success = Object.fromEntries(
    Object.entries(responses as Record<string, { headers?: object } & Body>).map(
      ([status, answer]) => [
        status,
        withStringForm(extra.length === 0 ? answer : withHeaders(answer, extra)),
      ],
    ),
  )
  return {
    operationId: route.operationId,
    tags: [tagOf(route.path)],
    ...(route.deprecation === undefined ? {} : { deprecated: true }),
    security: [{ bearerAuth: [route.scope] }],
    ...rest,
    ...(requestBody === undefined ? {} : { requestBody: withStringForm(requestBody as Body) }),
    responses: {
      ...success,
      ...eachWithStringForm(errorResponses(routeErrorCodes(route), extra)),
    },
  }
}

const withHeaders = <A extends { headers?: object }>(
  answer: A,
  names: ReadonlyArray<HeaderName>,
): A => ({
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
