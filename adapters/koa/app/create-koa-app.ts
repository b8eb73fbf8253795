import Koa from 'koa'
import type { AppState } from '../request/app-state.js'
import { clientAddress, clientOfRequests, useClientAddress } from '../request/client-address.js'
import { deprecationHeaders } from './deprecation.js'
import { cors } from './middleware/cors.js'
import { docs } from './middleware/docs.js'
import { fallback } from './middleware/fallback.js'
import { guardApi } from './middleware/guard-api.js'
import { observe } from './middleware/observe.js'
import { asTraceStep, traceRequests } from './middleware/trace.js'
import { probes } from './middleware/probes.js'
import { checkPublicPrefix, publicBaseOf } from './public-base.js'
import { tagLogAndCatch } from './middleware/tag-log-and-catch.js'
import { createRateLimits } from './rate-limits.js'
import { createResponder } from '../response/answer/index.js'
import { createPetJsonCache } from './json/pet-json.js'
import { openApiJson, serversOf } from './openapi/document.js'
import { createRouter, ROUTES, routesOf, type Route } from './routes/index.js'
import { preflightsOf } from './routes/preflight.js'
import { publicPreflightsOf } from './public-paths.js'
import type { KoaAppDeps, KoaAppOptions } from './koa-app-inputs.js'
import { apiSettingsOf } from './api-settings.js'
import { koaAppDepsOf } from './koa-app-defaults.js'

/**
 * The router's middleware, under a name that traces and stack traces show (its own is `bound `),
 * typed as any middleware of the app: the router adds its own fields to the context it is given.
 */
const routeRequest = (router: ReturnType<typeof createRouter>): Koa.Middleware<AppState> =>
  Object.defineProperty(router.routes(), 'name', {
    value: 'routeRequest',
  }) as Koa.Middleware<AppState>

/** The route, its handler run in a span of the request's trace named by its operationId. */
const tracedRoute = (route: Route): Route => ({
  ...route,
  handler: (deps) => asTraceStep(route.operationId, 'operation', route.handler(deps)),
})

/**
 * Builds the app without listening: servers, tests and embedders call `app.callback()`, or
 * mount it in a host Koa app. A store and the keys are all it needs: every other dep and option
 * is the interface's (see KoaAppDeps and KoaAppOptions for each default).
 *
 * @example
 * ```ts
 * import { createServer } from 'node:http'
 * import { createInMemoryApiKeys, createInMemoryPetStore } from 'animal-store/in-memory'
 * import { createKoaApp } from 'animal-store/koa'
 *
 * const app = createKoaApp({
 *   store: createInMemoryPetStore(),
 *   apiKeys: createInMemoryApiKeys(['my-secret-key']),
 * })
 * const server = createServer(app.callback()).listen(0, '127.0.0.1')
 * await new Promise((listening) => server.once('listening', listening))
 * const { port } = server.address() as { port: number }
 * const answer = await fetch(`http://127.0.0.1:${port}/v1/pets`, {
 *   headers: { authorization: 'Bearer my-secret-key' },
 * })
 * console.log(answer.status, await answer.text()) // 200 []
 * server.close()
 * ```
 */
export const createKoaApp = (deps: KoaAppDeps, options: KoaAppOptions = {}): Koa<AppState> => {
  const ports = koaAppDepsOf(deps)
  const settings = { ...options, ...apiSettingsOf(options) }
  const { basePath } = settings
  const routes = routesOf(options.routes ?? ROUTES)
  const publicBase = publicBaseOf(checkPublicPrefix(options.publicPrefix ?? ''), basePath)
  const respond = createResponder({
    retryAfterSeconds: settings.retryAfterSeconds,
    logger: ports.logger,
  })
  const router = createRouter(
    {
      ...settings,
      store: ports.store,
      ...(ports.idempotencyStore === undefined ? {} : { idempotencyStore: ports.idempotencyStore }),
      respond,
      now: ports.now,
      publicBase,
      petJson: createPetJsonCache(),
    },
    ports.tracer === undefined ? routes : routes.map(tracedRoute),
  )
  // The headers name the replacement that the table's deprecated operation gives.
  const deprecated = routes.find((route) => route.deprecation !== undefined)?.deprecation
  const deprecation = (base: string) =>
    deprecated === undefined ? {} : deprecationHeaders(settings.deprecation, base, deprecated)
  const limits =
    options.rateLimits === undefined ? undefined : createRateLimits(options.rateLimits, ports.now)
  const openApi = (base: string) =>
    openApiJson({
      ...settings,
      servers: serversOf(base, options.openApiServers),
      routes: options.routes ?? ROUTES,
    })

  const corsOrigins = options.corsOrigins ?? []
  const routedPreflightOf = preflightsOf(router, routes, settings)
  const publicPreflightOf = publicPreflightsOf(basePath)
  const preflightOf = (path: string) => publicPreflightOf(path) ?? routedPreflightOf(path)

  // The app's own rules for the client address, which its budgets and log use even mounted.
  const clientOf = clientOfRequests(clientAddress(options.trustProxy))
  const app = new Koa<AppState>()
  useClientAddress(app, clientOf)
  const { tracer } = ports
  // With middleware spans asked for, each middleware after the tracer's own runs as a step.
  const use = (middleware: Koa.Middleware<AppState>) =>
    app.use(
      tracer?.middlewareSpans === true
        ? asTraceStep(middleware.name, 'middleware', middleware)
        : middleware,
    )
  if (tracer !== undefined) app.use(traceRequests(tracer))
  if (ports.observeRequest !== undefined) use(observe(ports.observeRequest))
  use(tagLogAndCatch(ports.logger, respond, clientOf, ports.requestLine, options.logProbes))
  // Before the probes: every answer to an allowed origin carries the CORS headers.
  if (corsOrigins.length > 0) use(cors({ origins: corsOrigins, preflightOf }))
  use(probes(ports.checkReadiness, respond))
  use(docs(basePath, respond, clientOf, limits))
  use(
    guardApi(
      // The app's clock decides expiry, as it decides the sunset.
      { verifyApiKey: ports.apiKeys.verifyApiKey, now: ports.now },
      {
        basePath,
        publicBase,
        openApiJson: openApi,
        deprecationHeaders: deprecation,
        limits,
        routes,
        clientOf,
      },
      respond,
    ),
  )
  use(routeRequest(router))
  use(fallback(respond))
  return app
}
