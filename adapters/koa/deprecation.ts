/** The seed's removal date of `GET /pets/{petId}`: from this instant on it answers 410 Gone. */
export const GET_PET_SUNSET = new Date('2030-12-05T00:00:00Z')
/** Default for when `getPet` counts as deprecated (RFC 9745): the publication of interface 1.0.0. */
export const GET_PET_DEPRECATED_DEFAULT = new Date('2026-01-01T00:00:00Z')

export type DeprecationPolicy = { readonly deprecatedAt: Date; readonly sunsetAt: Date }

/** The headers every answer of the deprecated operation carries (RFC 9745, RFC 8594, RFC 8288). */
export const deprecationHeaders = (
  policy: DeprecationPolicy,
  basePath: string,
): Readonly<Record<string, string>> => ({
  Deprecation: `@${Math.floor(policy.deprecatedAt.getTime() / 1000)}`,
  Sunset: policy.sunsetAt.toUTCString(),
  Link: `<${basePath}/pets>; rel="successor-version"; title="GET ${basePath}/pets?status=..."`,
})
