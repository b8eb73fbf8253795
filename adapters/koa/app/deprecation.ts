import { GET_PET_DEPRECATION, type Deprecation } from '../../../core/index.js'

export { GET_PET_DEPRECATION, type Deprecation }

/** When the operation is deprecated (configured) and when it goes (fixed by the interface). */
export type DeprecationPolicy = { readonly deprecatedAt: Date; readonly sunsetAt: Date }

/** When `GET /pets/{petId}` goes: from then on it answers 410 Gone. */
export const GET_PET_SUNSET = GET_PET_DEPRECATION.sunsetAt
/** When `GET /pets/{petId}` counts as deprecated unless configured otherwise. */
export const GET_PET_DEPRECATED_DEFAULT = GET_PET_DEPRECATION.defaultDeprecatedAt

/** The headers every answer of the deprecated operation carries (RFC 9745, RFC 8594, RFC 8288). */
export const deprecationHeaders = (
  policy: DeprecationPolicy,
  basePath: string,
  deprecation: Deprecation = GET_PET_DEPRECATION,
): Readonly<Record<string, string>> => ({
  Deprecation: `@${Math.floor(policy.deprecatedAt.getTime() / 1000)}`,
  Sunset: policy.sunsetAt.toUTCString(),
  Link: `<${basePath}${deprecation.successor.path}>; rel="successor-version"; title="GET ${basePath}${deprecation.successor.usage}"`,
})

/** The message of the 410 once the sunset has passed. */
export const goneDetail = (basePath: string, deprecation: Deprecation = GET_PET_DEPRECATION) =>
  `this operation was removed; use GET ${basePath}${deprecation.successor.usage}`

/** The OpenAPI wording of the deprecated operation. */
export const deprecationWording = (deprecation: Deprecation = GET_PET_DEPRECATION) =>
  `Deprecated; removed on ${deprecation.sunsetAt.toISOString().slice(0, 10)}, from when it answers 410. Use \`GET ${deprecation.successor.path}\` with the \`status\` filter. Every answer carries \`Deprecation\`, \`Sunset\` and a \`Link\` to the replacement.`
