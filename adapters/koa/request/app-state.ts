import type { ParameterizedContext } from 'koa'
import type { Principal } from '../../../core/index.js'
import type { RequestTrace } from './request-trace.js'

/** What middleware leaves for the middleware after it: typed, so no side channel is untyped. */
export type AppState = {
  /** Who called, once guardApi has admitted the request. */
  principal?: Principal
  /** The cause of a store failure, for the request's log line (never for the client). */
  storeFailure?: string
  /** Set once the body reader has taken every declared byte of the request's body. */
  bodyTaken?: boolean
  /**
   * Sends `100 Continue` to a client that waits for it before sending its body. Given by a server
   * that holds the invitation back until the app asks (../server/root-app.ts); absent, the server (Node's
   * default) has invited the body already.
   */
  inviteBody?: () => void
  /**
   * Tells the server that listens that this request's connection carries a valid key (by its
   * id). Given by the service's own server (../server/root-app.ts); absent under any other host.
   */
  markKeyed?: (keyId: string) => void
  /** The client's address by the trusted-proxy rules, once `ctx.ip` has been read. */
  clientAddress?: string
  /** The request's trace, when the app was given a tracer (deps.tracer) and it traces this one. */
  trace?: RequestTrace
}

/** The Koa context of the app's middleware, with its typed state. */
export type AppContext = ParameterizedContext<AppState>
