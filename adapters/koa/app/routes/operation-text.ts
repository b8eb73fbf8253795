import type { HeaderName } from '../../response/header-names.js'

/** The part of an OpenAPI operation a route writes itself. */
export type OperationText = {
  readonly summary: string
  readonly description: string
  readonly parameters?: ReadonlyArray<object>
  readonly requestBody?: object
  readonly responses: Readonly<Record<string, object>>
}

/** The parameters the document describes once, in `components.parameters`. */
export type ParameterName = 'limit' | 'status' | 'after' | 'petId'

/** A reference to one of the document's parameters. */
export const param = (name: ParameterName) => ({ $ref: `#/components/parameters/${name}` })

/** A reference to one of the document's headers. */
export const headerRef = (name: HeaderName) => ({ $ref: `#/components/headers/${name}` })

const common = {
  'X-Request-Id': headerRef('X-Request-Id'),
  'Cache-Control': headerRef('Cache-Control'),
  'X-Content-Type-Options': headerRef('X-Content-Type-Options'),
  'RateLimit-Policy': headerRef('RateLimit-Policy'),
  RateLimit: headerRef('RateLimit'),
}

/** A response whose body is `schema`, with the headers every answer carries plus `extra`. */
export const jsonResponse = (
  description: string,
  schema: string,
  extra: ReadonlyArray<HeaderName> = [],
) => ({
  description,
  headers: { ...common, ...Object.fromEntries(extra.map((h) => [h, headerRef(h)])) },
  content: { 'application/json': { schema: { $ref: `#/components/schemas/${schema}` } } },
})
