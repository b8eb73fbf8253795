import type { Socket } from 'node:net'
import type { ConnectionState } from './connection-share.js'
import { responseOf } from './eviction-order.js'

/** How request bodies must arrive, checked on the server's tick. */
export type BodyPace = {
  /** Bytes a second below which a body in progress counts as stalled. */
  readonly minBytesPerSecond: number
  /** Time for a whole body to arrive once its request's headers are in. */
  readonly timeoutMs: number
}

/**
 * One tick's look at a connection's request body, if one is arriving: whether it came at the
 * minimum rate since the last tick (a stalled one gives way first at the cap, keyed or not), and
 * whether it is past its deadline (then true: the caller refuses it). A body is first judged at
 * the tick after the one that saw it start, so a request younger than a tick is never stalled.
 */
export const watchBody = (
  socket: Socket,
  state: ConnectionState,
  pace: BodyPace,
  now: number,
  sinceLastTick: number,
): boolean => {
  const req = responseOf(socket)?.req
  if (req === undefined || req.complete) {
    state.watchedBody = state.stalledBody = undefined
    return false
  }
  const bytes = socket.bytesRead
  if (state.watchedBody !== req) {
    state.watchedBody = req
    state.watchedSince = now
    state.bytesAtTick = bytes
    return false
  }
  const arrived = bytes - state.bytesAtTick
  state.bytesAtTick = bytes
  state.stalledBody = arrived < (pace.minBytesPerSecond * sinceLastTick) / 1000 ? req : undefined
  return now - state.watchedSince >= pace.timeoutMs
}
