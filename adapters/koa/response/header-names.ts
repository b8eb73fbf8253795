/** Every header the API's answers carry that its OpenAPI document describes. */
export type HeaderName =
  | 'X-Request-Id'
  | 'Cache-Control'
  | 'X-Content-Type-Options'
  | 'Link'
  | 'Idempotent-Replayed'
  | 'Location'
  | 'Deprecation'
  | 'Sunset'
  | 'WWW-Authenticate'
  | 'Retry-After'
  | 'RateLimit-Policy'
  | 'RateLimit'

const exposed: ReadonlyArray<HeaderName> = [
  'Link',
  'Location',
  'Deprecation',
  'Sunset',
  'X-Request-Id',
  'Retry-After',
  'WWW-Authenticate',
  'RateLimit',
  'RateLimit-Policy',
  'Idempotent-Replayed',
]

/** Response headers a script may read; the browser hides all but a few safe ones otherwise. */
export const EXPOSED_HEADERS = exposed.join(', ')
