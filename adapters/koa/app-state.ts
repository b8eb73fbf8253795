import type { ParameterizedContext } from 'koa'
import type { Principal } from '../../core/index.js'

/** What middleware leaves for the middleware after it: typed, so no side channel is untyped. */
export type AppState = {
  /** Who called, once the front door has admitted the request. */
  principal?: Principal
  /** The cause of a store failure, for the request's log line (never for the client). */
  storeFailure?: string
  /** The answer's own headers as name/value pairs, until frame sends it (see answer.ts). */
  answerHeaders?: string[]
  /** The answer's body (JSON text, or the docs page's bytes), until frame sends it. */
  answerBody?: string | Buffer
}

export type AppContext = ParameterizedContext<AppState>
