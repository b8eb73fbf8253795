import type Router from '@koa/router'
import type { ApiSettings } from '../api-settings.js'
import type { AppState } from '../../request/app-state.js'
import type { OperationText } from './operation-text.js'
import type { Route } from './route.js'

/** What a browser may do on one path: the methods routed there, the request headers they read. */
export type Preflight = { readonly methods: string; readonly headers: string }

/** Every operation reads these. */
const ALWAYS_READ = ['Authorization', 'X-Request-Id']

const isHeaderParameter = (p: object): p is { in: 'header'; name: string } =>
  'in' in p && p.in === 'header' && 'name' in p && typeof p.name === 'string'

/** The request headers an operation reads: its documented header parameters, and its body's type. */
export const requestHeadersOf = (text: OperationText): ReadonlyArray<string> => [
  ...ALWAYS_READ,
  ...(text.requestBody === undefined ? [] : ['Content-Type']),
  ...(text.parameters ?? []).filter(isHeaderParameter).map((p) => p.name),
]

const listed = (names: ReadonlyArray<string>) => [...new Set(names)].sort().join(', ')

/**
 * The preflight answer of each path, from the route table and the router that serves it (HEAD
 * comes with GET): undefined for a path the router does not know.
 */
export const preflightsOf = (
  router: Router<AppState>,
  routes: ReadonlyArray<Route>,
  settings: ApiSettings,
) => {
  const headers = new Map(
    routes.map((r) => [r.operationId, requestHeadersOf(r.document(settings))]),
  )
  return (path: string): Preflight | undefined => {
    const layers = router.match(path, 'OPTIONS').path
    if (layers.length === 0) return undefined
    return {
      methods: listed(layers.flatMap((layer) => layer.methods)),
      headers: listed(layers.flatMap((layer) => headers.get(layer.name ?? '') ?? [])),
    }
  }
}
