import type Koa from 'koa'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { AppContext, AppState } from '../request/app-state.js'
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

type Composed = (ctx: AppContext) => Promise<void>
type Composer = (middleware: Koa<AppState>['middleware']) => Composed

/**
 * Whether the whole body is in: taken by the app, or waiting in the request's buffer (Node marks
 * the request complete only after the turn in which the app may have answered it).
 */
const bodyArrived = (ctx: AppContext): boolean =>
  ctx.req.complete ||
  ctx.state.bodyTaken === true ||
  ctx.req.readableLength === Number(ctx.req.headers['content-length'])

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
 */
export const serveAsRoot = (app: Koa<AppState>): WireListener => {
  // An app that keeps its context in AsyncLocalStorage needs Koa's own run of it, and gets the
  // body at once as under plain Node: it cannot be told to ask for it.
  if (app.ctxStorage !== undefined) {
    const handle = app.callback()
    return (req, res, inviteBody) => {
      inviteBody?.()
      return handle(req, res)
    }
  }
  const compose = (app as unknown as { compose: Composer }).compose
  const run = compose(app.middleware)
  // As `app.callback()` does: an app with no 'error' listener reports through `app.onerror`.
  if (app.listenerCount('error') === 0) app.on('error', app.onerror.bind(app))
  const write = writeAnswer()
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
