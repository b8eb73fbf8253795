import type Koa from 'koa'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import type { AppContext, AppState } from '../request/app-state.js'
import { composerOf, koaShapeDifferences } from '../koa-internals.js'
import { writeAnswer } from './root-answer.js'

/**
 * A request listener that may be told how to invite the body of an `Expect: 100-continue`, and
 * how to tell the server that the request carried a valid key, by the key's id (its connection
 * then gives way after anonymous ones when the connection cap is reached, and is counted in its
 * key's share).
 */
export type WireListener = (
  req: IncomingMessage,
  res: ServerResponse,
  inviteBody?: () => void,
  markKeyed?: (keyId: string) => void,
) => void

/**
 * Whether the whole body is in: taken by the app, or waiting in the request's buffer (Node marks
 * the request complete only after the turn in which the app may have answered it).
 */
const bodyArrived = (ctx: AppContext): boolean =>
  ctx.req.complete ||
  ctx.state.bodyTaken === true ||
  ctx.req.readableLength === Number(ctx.req.headers['content-length'])

/**
 * Koa's own `app.callback()`, which gets the body at once as under plain Node: it cannot be told
 * to ask for it.
 */
const viaCallback = (app: Koa<AppState>): WireListener => {
  const handle = app.callback()
  return (req, res, inviteBody) => {
    inviteBody?.()
    return handle(req, res)
  }
}

/**
 * Drives a Koa app as the server's root application: the app's middleware run as Koa runs them
 * (a context from `app.createContext`, 404 to start, `ctx.onerror` for an exception that escapes),
 * then what the app set on the context (status, headers, body) is written by `writeAnswer`, the
 * equivalent of Koa's `respond` with the writes batched (see root-answer.ts).
 *
 * Only the server that listens uses this: nothing outside the app can see the answer between the
 * last middleware and the socket. Anyone who mounts or wraps the app uses `app.callback()` or
 * `app.middleware` and gets Koa's own handling. Koa's on-finished listeners, which report a
 * failure of the response stream after the answer, are left out: the app sends strings and
 * buffers, whose write has no stream to fail.
 *
 * It reads fields of Koa that are not its API (koa-internals.ts): when this Koa differs from
 * them, it tells `onDiffers` which, once, and serves through `app.callback()` instead. An answer
 * left waiting on its socket is told `waiting` (the server's in-flight budget).
 */
export const serveAsRoot = (
  app: Koa<AppState>,
  onDiffers: (fields: ReadonlyArray<string>) => void = () => {},
  waiting?: (socket: Socket) => void,
): WireListener => {
  // An app that keeps its context in AsyncLocalStorage needs Koa's own run of it.
  if (app.ctxStorage !== undefined) return viaCallback(app)
  const differences = koaShapeDifferences(app)
  const compose = composerOf(app)
  if (differences.length > 0 || compose === undefined) {
    onDiffers(differences)
    return viaCallback(app)
  }
  const run = compose<AppContext>(app.middleware)
  // As `app.callback()` does: an app with no 'error' listener reports through `app.onerror`.
  if (app.listenerCount('error') === 0) app.on('error', app.onerror.bind(app))
  const write = writeAnswer(waiting)
  return (req, res, inviteBody, markKeyed) => {
    const ctx = app.createContext<AppState>(req, res) as AppContext
    if (inviteBody !== undefined) ctx.state.inviteBody = inviteBody
    if (markKeyed !== undefined) ctx.state.markKeyed = markKeyed
    res.statusCode = 404
    run(ctx)
      .then(() => {
        // A body that came whole with its headers was never asked for: 100 Continue first, as
        // plain Node sends it, or Node would close the connection and drop what is pipelined.
        if (inviteBody !== undefined && bodyArrived(ctx)) inviteBody()
        write(ctx)
      })
      .catch((error: Error) => ctx.onerror(error))
  }
}
