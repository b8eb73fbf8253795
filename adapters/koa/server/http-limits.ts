import type { TrustProxy } from '../request/proxy-trust.js'
import type { ConnectionPace } from './connection-pace.js'

/** The limits of the listening server, below the app. */
export type HttpLimits = {
  /** Open connections at most; keep it under the descriptor limit (see connections.ts). */
  readonly maxConnections: number
  /** Time for the headers of a request to arrive (slowloris), from the first byte. */
  readonly headersTimeoutMs: number
  /** Time for a whole request, body included, to arrive. */
  readonly requestTimeoutMs: number
  /** How long an idle keep-alive connection stays open. */
  readonly keepAliveTimeoutMs: number
  /** Connections not known to carry a valid key, at most; no limit but the cap when absent. */
  readonly maxAnonymousConnections?: number | undefined
  /** Connections from one address (an IPv6 /64) at most; no limit when absent. */
  readonly maxConnectionsPerAddress?: number | undefined
  /** Trusted proxies (as the app's): their connections are exempt from the per-address cap. */
  readonly trustProxy?: TrustProxy | undefined
  /**
   * Bytes of answers that may wait on a connection (not yet taken by the kernel) before its
   * pipelined requests are held back and it is no longer read; 64 KiB when absent.
   */
  readonly maxBufferedAnswerBytes?: number | undefined
  /**
   * Bytes that work in flight may hold, summed over all connections: answers waiting on sockets
   * and those of pipelined requests carried out ahead; 32 MiB when absent (in-flight.ts).
   */
  readonly maxInFlightBytes?: number | undefined
  /** Time for a request body to arrive once its headers are in; 10 s when absent. */
  readonly bodyTimeoutMs?: number | undefined
}

/** The defaults of the optional limits of `HttpLimits`, as the service's settings have them. */
export const HTTP_LIMIT_DEFAULTS = {
  maxBufferedAnswerBytes: 65_536,
  maxInFlightBytes: 32 * 2 ** 20,
  bodyTimeoutMs: 10_000,
} as const

/** The pace asked of clients: the byte bounds and the body's deadline. */
export const paceOf = (limits: HttpLimits): ConnectionPace => ({
  maxBufferedBytes: limits.maxBufferedAnswerBytes ?? HTTP_LIMIT_DEFAULTS.maxBufferedAnswerBytes,
  maxInFlightBytes: limits.maxInFlightBytes ?? HTTP_LIMIT_DEFAULTS.maxInFlightBytes,
  heldTimeoutMs: limits.requestTimeoutMs,
  bodyTimeoutMs: limits.bodyTimeoutMs ?? HTTP_LIMIT_DEFAULTS.bodyTimeoutMs,
})
