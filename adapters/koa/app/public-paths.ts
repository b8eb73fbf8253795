import { DOCS_ASSET_NAMES } from './docs/assets.js'
import type { Preflight } from './routes/preflight.js'

/** What every public path serves: it is read, never written. Its 405 names these in Allow. */
export const PUBLIC_METHODS: ReadonlyArray<string> = ['GET', 'HEAD']

const preflightReading = (headers: ReadonlyArray<string>): Preflight => ({
  methods: PUBLIC_METHODS.join(', '),
  headers: headers.join(', '),
})

/**
 * The preflight answer of each public path (no key): the OpenAPI document, the reference page and
 * its assets, the probes. The router does not know them, so their preflights are listed here; as
 * every request, they read X-Request-Id, and the page and its assets If-None-Match.
 */
export const publicPreflightsOf = (basePath: string) => {
  const plain = preflightReading(['X-Request-Id'])
  const cached = preflightReading(['If-None-Match', 'X-Request-Id'])
  const preflights = new Map<string, Preflight>([
    [`${basePath}/openapi.json`, plain],
    ['/healthz', plain],
    ['/readyz', plain],
    [`${basePath}/docs`, cached],
    ...DOCS_ASSET_NAMES.map((name) => [`${basePath}/docs/${name}`, cached] as const),
  ])
  return (path: string): Preflight | undefined => preflights.get(path)
}
