import Router from '@koa/router'
import type { OperationId, Scope } from '../../../../core/index.js'
import type { AppState } from '../../request/app-state.js'
import { createPetRoute } from './create-pet.js'
import { getPetRoute } from './get-pet.js'
import { listPetsRoute } from './list-pets.js'
import { listStoreOrdersRoute } from './list-store-orders.js'
import type { Route, RouteDeps, RouteTable } from './route.js'

export type { OperationText } from './operation-text.js'
export type { Route, RouteDeps, RouteProblem, RouteTable } from './route.js'

/**
 * The interface's route table: a route for each operation of `OPERATIONS`, under its
 * operationId. A missing or extra key, or a route filed under another's key, fails to compile.
 */
export const ROUTES: { readonly [K in OperationId]: Route<K> } = {
  listPets: listPetsRoute,
  createPet: createPetRoute,
  getPet: getPetRoute,
  listStoreOrders: listStoreOrdersRoute,
}

/** The routes of a table, in its order; throws at start if a key is not its route's operationId. */
export const routesOf = (table: RouteTable): ReadonlyArray<Route> =>
  Object.entries(table).map(([key, route]) => {
    if (key !== route.operationId)
      throw new Error(`the route table files ${route.operationId} under ${key}`)
    return route
  })

/** `/pets/{petId}` as the router writes it: `/pets/:petId`. */
const routerPath = (path: string) => path.replace(/\{(\w+)\}/g, ':$1')

export const createRouter = (deps: RouteDeps, routes: ReadonlyArray<Route>): Router<AppState> => {
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
export const deprecatedPathTest = (basePath: string, routes: ReadonlyArray<Route>) => {
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
export const scopeByMethod = (routes: ReadonlyArray<Route>): Readonly<Record<string, Scope>> => {
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
