import type { Deprecation } from '../../../core/index.js'

/** When the operation is deprecated (configured) and when it goes (fixed by the interface). */
export type DeprecationPolicy = { readonly deprecatedAt: Date; readonly sunsetAt: Date }

/** The headers every answer of the deprecated operation carries (RFC 9745, RFC 8594, RFC 8288). */
export const deprecationHeaders = (
  policy: DeprecationPolicy,
  basePath: string,
  deprecation: Deprecation,
): Readonly<Record<string, string>> => ({
  Deprecation: `@${Math.floor(policy.deprecatedAt.getTime() / 1000)}`,
  Sunset: policy.sunsetAt.toUTCString(),
  Link: `<${basePath}${deprecation.successor.path}>; rel="successor-version"; title="GET ${basePath}${deprecation.successor.usage}"`,
})

/** The message of the 410 once the sunset has passed, naming the successor under `base`. */
export const goneDetail = (base: string, deprecation: Deprecation) =>
  `this operation was removed; use GET ${base}${deprecation.successor.usage}`

/** The OpenAPI wording of the deprecated operation. */
export const deprecationWording = (policy: DeprecationPolicy, deprecation: Deprecation) =>
  `Deprecated; removed on ${policy.sunsetAt.toISOString().slice(0, 10)}, from when it answers 410. Use \`GET ${deprecation.successor.path}\` with the \`status\` filter. Every answer carries \`Deprecation\`, \`Sunset\` and a \`Link\` to the replacement.`
