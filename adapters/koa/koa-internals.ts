import Router from '@koa/router'
import type Koa from 'koa'
import { IncomingMessage, ServerResponse } from 'node:http'
import { Socket } from 'node:net'
import type { Duplex } from 'node:stream'

/*
 * Every private field of Koa, @koa/router and node:http that this adapter reads, and nowhere
 * else. Their versions may change them in any release: `koaShapeDifferences` checks each once,
 * when the server starts, and the server then falls back to Koa's own `app.callback()`.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any app, whatever its state
type AnyKoa = Koa<any, any>
type Composed<C> = (ctx: C) => Promise<void>
type Composer = <C>(middleware: ReadonlyArray<unknown>) => Composed<C>

/** Koa 3 keeps koa-compose on the app (`options.compose`): the run of its middleware. */
export const composerOf = (app: AnyKoa): Composer | undefined => {
  const compose = (app as { compose?: unknown }).compose
  return typeof compose === 'function' ? (compose as Composer) : undefined
}

/** Koa's mark of `ctx.body = null`: answered empty, where no body at all answers its status text. */
export const isExplicitNullBody = (response: object): boolean =>
  (response as { _explicitNullBody?: boolean })._explicitNullBody === true

/** node:http's response holding the socket: set from the request's headers until it finishes. */
export const responseOnSocket = (socket: Duplex): ServerResponse | null | undefined =>
  (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage

/** Whether node:http closes the connection after this answer (its `_last`: `Connection: close`). */
export const isLastAnswer = (res: ServerResponse | null | undefined): boolean =>
  (res as (ServerResponse & { _last?: boolean }) | null | undefined)?._last === true

/**
 * node:http's own pause of a socket (its `_paused`), set while it holds pipelined requests back;
 * node:http undoes it on drain, so a socket it paused must not be resumed by anyone else. Not
 * probed at start (only a live pipelined connection sets it): the pipelining tests run on each
 * Node that CI runs.
 */
export const pausedByNode = (socket: Duplex): boolean =>
  (socket as Duplex & { _paused?: boolean })._paused === true

/** @koa/router's template of the route that took the request (`/pets/:petId`), if one did. */
export const matchedRoute = (ctx: object): string | undefined => {
  const route = (ctx as { _matchedRoute?: unknown })._matchedRoute
  return typeof route === 'string' ? route : undefined
}

/** Replaces Koa's `request.ip` getter (on `app.request`, the prototype of every request). */
export const defineRequestIp = <R>(
  app: { readonly request: object },
  accessors: { get: (this: R) => string; set: (this: R, value: string) => void },
): void => {
  Object.defineProperty(app.request, 'ip', { configurable: true, ...accessors })
}

const probeRequest = () => {
  const socket = new Socket()
  const req = new IncomingMessage(socket)
  Object.assign(req, { method: 'GET', url: '/probe', headers: {} })
  return { socket, req, res: new ServerResponse(req) }
}

/** Each check: what it reads, and whether this version still behaves as the adapter expects. */
const checks = (app: AnyKoa): ReadonlyArray<[string, () => boolean]> => [
  ['app.compose', () => composeRuns(app)],
  ['response._explicitNullBody', () => marksNullBody(app)],
  ['socket._httpMessage', holdsResponse],
  ['ctx._matchedRoute', () => namesRoute(app)],
]

const composeRuns = (app: AnyKoa): boolean => {
  const { req, res } = probeRequest()
  const ctx = app.createContext(req, res)
  let ran: unknown
  void composerOf(app)?.([(c: unknown) => void (ran = c)])(ctx)
  return ran === ctx
}

const marksNullBody = (app: AnyKoa): boolean => {
  const { req, res } = probeRequest()
  const ctx = app.createContext(req, res)
  const unmarked = !isExplicitNullBody(ctx.response)
  ctx.body = null
  return unmarked && isExplicitNullBody(ctx.response)
}

const holdsResponse = (): boolean => {
  const { socket, res } = probeRequest()
  res.assignSocket(socket)
  const held = responseOnSocket(socket) === res
  res.detachSocket(socket)
  return held && responseOnSocket(socket) == null
}

/** The router names the route before it runs the route's middleware, as it did here. */
const namesRoute = (app: AnyKoa): boolean => {
  const { req, res } = probeRequest()
  req.url = '/pets/1'
  const ctx = app.createContext(req, res)
  let named: string | undefined
  const router = new Router()
  router.get('/pets/:petId', (c) => void (named = matchedRoute(c)))
  void router
    .routes()(ctx as never, async () => {})
    .catch(() => {})
  return named === '/pets/:petId'
}

/**
 * What this Koa, @koa/router and Node do differently from what the root writer relies on: the
 * names of the fields whose check failed (or threw), none when it can drive the app. Run once.
 */
export const koaShapeDifferences = (app: AnyKoa): ReadonlyArray<string> =>
  checks(app)
    .filter(([, check]) => {
      try {
        return !check()
      } catch {
        return true
      }
    })
    .map(([name]) => name)
