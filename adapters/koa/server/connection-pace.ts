import type { Server } from 'node:http'
import type { Socket } from 'node:net'
import { responseOnSocket } from '../koa-internals.js'
import type { ConnectionState } from './connection-share.js'
import { dropConnection, type InFlight } from './in-flight.js'

/** How often connections are looked at: bodies, requests held back, the in-flight sum. */
const TICK_MS = 1000

/** What the server asks of its clients' pace, besides Node's own timeouts. */
export type ConnectionPace = {
  /** Bytes of answers waiting on a connection past which its pipelined requests are held back. */
  readonly maxBufferedBytes: number
  /** Bytes that work in flight may hold, summed over all connections (in-flight.ts). */
  readonly maxInFlightBytes: number
  /** How long requests may stay held back before the connection is closed. */
  readonly heldTimeoutMs: number
  /** Time for a whole body to arrive once its request's headers are in. */
  readonly bodyTimeoutMs: number
}

/**
 * Whether the connection's request body is past its deadline. A body is first seen at a tick,
 * so its deadline counts from then: up to a tick late, never early.
 */
const bodyLate = (socket: Socket, state: ConnectionState, timeoutMs: number, now: number) => {
  const req = responseOnSocket(socket)?.req
  if (req === undefined || req.complete) return void (state.watchedBody = undefined)
  if (state.watchedBody !== req) [state.watchedBody, state.watchedSince] = [req, now]
  return now - state.watchedSince >= timeoutMs
}

/**
 * Every tick: a request body past its deadline is refused 408 as Node refuses a request past its
 * timeout (through 'clientError'); a connection whose requests stayed held back too long is
 * closed; the bytes in flight are counted afresh. One timer per server, none per request.
 */
export const watchPace = (
  server: Server,
  open: Map<Socket, ConnectionState>,
  pace: ConnectionPace,
  inFlight: InFlight,
) => {
  const tick = () => {
    const now = Date.now()
    for (const [socket, state] of open) {
      const heldSince = state.pipeline?.heldSince ?? 0
      if (heldSince > 0 && now - heldSince >= pace.heldTimeoutMs) dropConnection(socket)
      else if (bodyLate(socket, state, pace.bodyTimeoutMs, now)) {
        const late = Object.assign(new Error('the body took too long'), {
          code: 'ERR_HTTP_REQUEST_TIMEOUT',
        })
        server.emit('clientError', late, socket)
      }
    }
    inFlight.recount()
  }
  const timer = setInterval(tick, TICK_MS).unref()
  server.once('close', () => clearInterval(timer))
}
