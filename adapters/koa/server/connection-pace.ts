import type { Server } from 'node:http'
import type { Socket } from 'node:net'
import { watchBody, type BodyPace } from './body-watch.js'
import type { ConnectionState } from './connection-share.js'

/** How often connections are looked at: bodies' pace, requests held back too long. */
const TICK_MS = 1000

/** What the server asks of its clients' pace, besides Node's own timeouts. */
export type ConnectionPace = {
  /** Bytes of answers waiting on a connection past which its pipelined requests are held back. */
  readonly maxBufferedBytes: number
  /** How long requests may stay held back before the connection is closed. */
  readonly heldTimeoutMs: number
  readonly body: BodyPace
}

/**
 * Every tick: a request body slower than the minimum rate is marked stalled, and one past its
 * deadline is refused 408 as Node refuses a request past its timeout (through 'clientError');
 * a connection whose requests stayed held back too long is closed. One timer per server, none
 * per request.
 */
export const watchPace = (
  server: Server,
  open: Map<Socket, ConnectionState>,
  pace: ConnectionPace,
) => {
  let last = Date.now()
  const tick = () => {
    const now = Date.now()
    for (const [socket, state] of open) {
      const heldSince = state.pipeline?.heldSince ?? 0
      if (heldSince > 0 && now - heldSince >= pace.heldTimeoutMs) socket.destroy()
      else if (watchBody(socket, state, pace.body, now, now - last)) {
        const late = Object.assign(new Error('the body took too long'), {
          code: 'ERR_HTTP_REQUEST_TIMEOUT',
        })
        server.emit('clientError', late, socket)
      }
    }
    last = now
  }
  const timer = setInterval(tick, TICK_MS).unref()
  server.once('close', () => clearInterval(timer))
}
