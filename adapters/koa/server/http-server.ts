import type Koa from 'koa'
import { createServer, type RequestListener, type Server } from 'node:http'
import type { AppState } from '../request/app-state.js'
import { clientAddress } from '../request/client-address.js'
import { createClientErrorAnswer } from './raw-error-answer.js'
import { trackConnections, type Connections } from './connections.js'
import { limitsWithDefaults, paceOf, type HttpLimits } from './http-limits.js'
import { serveAsRoot, type WireListener } from './root-app.js'
import { silentLogger, type Logger } from '../../../core/index.js'
import { guardCodings, guardHeaders } from './wire-guard.js'
import { expectsContinue, refuseConnect, refuseExpectation } from './wire-refusals.js'

export { HTTP_LIMIT_DEFAULTS, type HttpLimits } from './http-limits.js'

/** The node:http server (not yet listening) and its connection accounting. */
export type HttpServer = { readonly server: Server; readonly connections: Connections }

/** `100 Continue` sent once at most, and never after the answer has begun. */
const invitation = (res: Parameters<RequestListener>[1]) => {
  let sent = false
  return () => {
    if (sent || res.headersSent) return
    sent = true
    res.writeContinue()
  }
}

/**
 * The node:http server around a Koa app (driven as its root application, see root-app.ts) or a
 * plain request listener, with every refusal answered by the Error body: the HTTP version (1.1
 * or 1.0) and Host checked here, unknown `Expect` 417, CONNECT and transfer codings other than
 * chunked 501, `100 Continue` only when the app's body reader asks for it (at once for a plain
 * listener, as Node does), the connection cap and the timeouts. Out of descriptors at accept,
 * libuv takes the newcomer on a spare descriptor and closes it at once (the client sees its
 * connection closed, without an answer); an accept failure that still reaches Node is logged as
 * a warning, never fatal.
 * Each limit left out is the service's default (`HTTP_LIMIT_DEFAULTS`); the logger is silent
 * when none is given.
 */
export const createHttpServer = (
  appOrListener: Koa<AppState> | WireListener,
  limits: HttpLimits = {},
  logger: Logger = silentLogger,
): HttpServer => serveWith(appOrListener, limitsWithDefaults(limits), logger)

const serveWith = (
  appOrListener: Koa<AppState> | WireListener,
  limits: ReturnType<typeof limitsWithDefaults>,
  logger: Logger,
): HttpServer => {
  const server = createServer({
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    requireHostHeader: false,
    // How often Node enforces the two timeouts above (its default, 30 s, would blunt them).
    connectionsCheckingInterval: Math.min(1000, limits.headersTimeoutMs),
  })
  // Every header is kept (the 16 KiB limit bounds them): past Node's default 2,000 names and
  // values, later ones were dropped unseen, a second Authorization or Host among them.
  server.maxHeadersCount = 0
  const connections = trackConnections(
    server,
    limits.maxConnections,
    {
      maxAnonymous: limits.maxAnonymousConnections,
      maxPerAddress: limits.maxConnectionsPerAddress,
      isProxy: clientAddress(limits.trustProxy).isProxy,
    },
    paceOf(limits),
  )
  // Not instanceof: an embedder's app may come from another copy of Koa.
  const isApp = typeof appOrListener !== 'function'
  const listener = isApp
    ? serveAsRoot(
        appOrListener,
        (fields) => logger.warn({ fields }, 'koa internals differ: serving through app.callback()'),
        connections.waiting,
      )
    : appOrListener
  const guarded = connections.guard(guardHeaders(guardCodings(listener)))
  // A 417 takes its turn like any request: answered outside the guard, thousands pipelined
  // behind an answer in progress would each hold a request and its queued answer.
  const refusedExpectation = connections.guard(refuseExpectation)
  server.on('request', guarded)
  server.on('checkContinue', (req, res) => {
    if (!expectsContinue(req)) return refusedExpectation(req, res)
    const invite = invitation(res)
    if (!isApp) invite()
    guarded(req, res, invite)
  })
  server.on('checkExpectation', refusedExpectation)
  server.on('connect', refuseConnect)
  server.on('clientError', createClientErrorAnswer())
  server.once('listening', () =>
    server.on('error', (error: Error & { syscall?: string }) => {
      if (error.syscall !== 'accept') throw error
      logger.warn({ err: String(error) }, 'cannot accept a connection (descriptors exhausted?)')
    }),
  )
  return { server, connections }
}
