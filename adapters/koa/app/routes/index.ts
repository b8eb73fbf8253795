import Router from '@koa/router'
import type { Scope } from '../../../../core/index.js'
import type { AppState } from '../../request/app-state.js'
import { createPetRoute } from './create-pet.js'
import { getPetRoute } from './get-pet.js'
import { listPetsRoute } from './list-pets.js'
import { listStoreOrdersRoute } from './list-store-orders.js'
import type { Route, RouteDeps } from './route.js'

export type { OperationText } from './operation-text.js'
export type { Route, RouteDeps } from './route.js'

/** The route table: the one list of the API's operations. */
export const ROUTES: ReadonlyArray<Route> = [
  listPetsRoute,
  createPetRoute,
  getPetRoute,
  listStoreOrdersRoute,
]

/** `/pets/{petId}` as the router writes it: `/pets/:petId`. */
const routerPath = (path: string) => path.replace(/\{(\w+)\}/g, ':$1')

export const createRouter = (deps: RouteDeps, routes = ROUTES): Router<AppState> => {
  const router = new Router<AppState>({ prefix: deps.basePath, sensitive: true, strict: true })
  for (const route of routes)
    router.register(routerPath(route.path), [route.method], route.handler(deps), {
      name: route.operationId,
    })
  return router
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/**
 * Whether a GET of this path is a deprecated operation: known before authentication, so that
 * even the 401 to an anonymous caller carries the deprecation headers.
 */
export const deprecatedPathTest = (basePath: string, routes = ROUTES) => {
  const patterns = routes
    .filter((route) => route.deprecation !== undefined)
    .map(
      (route) => new RegExp(`^${escape(basePath + route.path).replace(/\\\{\w+\\\}/g, '[^/]+')}$`),
    )
  return (path: string): boolean => patterns.some((pattern) => pattern.test(path))
}

/**
 * The scope each method needs, checked before routing. The rule is that the scope follows the
 * method (reads need pets:read, writes pets:write); the table must agree, or this throws at start.
 */
export const scopeByMethod = (routes = ROUTES): Readonly<Record<string, Scope>> => {
  const byMethod: Record<string, Scope> = {}
  for (const { method, scope, operationId } of routes) {
    for (const name of method === 'GET' ? ['GET', 'HEAD'] : [method]) {
      if (byMethod[name] !== undefined && byMethod[name] !== scope)
        throw new Error(`${operationId}: every ${name} route must need the scope ${byMethod[name]}`)
      byMethod[name] = scope
    }
  }
  return byMethod
}
