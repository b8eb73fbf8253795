import type Koa from 'koa'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { AppContext, AppState } from '../request/app-state.js'
import { writeAnswer } from './root-answer.js'

/**
 * A request listener that may be told how to invite the body of an `Expect: 100-continue`, and
 * how to tell the server that the request carried a valid key (its connection then gives way
 * after anonymous ones when the connection cap is reached).
 */
export type WireListener = (
  req: IncomingMessage,
  res: ServerResponse,
  inviteBody?: () => void,
  markKeyed?: () => void,
) => void

type Composed = (ctx: AppContext) => Promise<void>
type Composer = (middleware: Koa<AppState>['middleware']) => Composed

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
  // An app that keeps its context in AsyncLocalStorage needs Koa's own run of it.
  if (app.ctxStorage !== undefined) return app.callback()
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
      .then(() => write(ctx))
      .catch((error: Error) => ctx.onerror(error))
  }
}
