import type { TrustProxy } from '../request/proxy-trust.js'
import type { ConnectionPace } from './connection-pace.js'

/** The limits of the listening server, below the app; each one left out is its default. */
export type HttpLimits = {
  /**
   * Open connections at most; keep it under the descriptor limit (see connections.ts).
   *
   * @defaultValue `1000`
   */
  readonly maxConnections?: number | undefined
  /**
   * Time for the headers of a request to arrive (slowloris), from the first byte.
   *
   * @defaultValue `10_000` (10 s)
   */
  readonly headersTimeoutMs?: number | undefined
  /**
   * Time for a whole request, body included, to arrive; at least `headersTimeoutMs`.
   *
   * @defaultValue `30_000` (30 s)
   */
  readonly requestTimeoutMs?: number | undefined
  /**
   * How long an idle keep-alive connection stays open.
   *
   * @defaultValue `65_000` (65 s)
   */
  readonly keepAliveTimeoutMs?: number | undefined
  /** Connections not known to carry a valid key, at most; no limit but the cap when absent. */
  readonly maxAnonymousConnections?: number | undefined
  /** Connections from one address (an IPv6 /64) at most; no limit when absent. */
  readonly maxConnectionsPerAddress?: number | undefined
  /** Trusted proxies (as the app's): their connections are exempt from the per-address cap. */
  readonly trustProxy?: TrustProxy | undefined
  /**
   * Bytes of answers that may wait on a connection (not yet taken by the kernel) before its
   * pipelined requests are held back and it is no longer read.
   *
   * @defaultValue `65_536` (64 KiB)
   */
  readonly maxBufferedAnswerBytes?: number | undefined
  /**
   * Bytes that work in flight may hold, summed over all connections: answers waiting on sockets
   * and those of pipelined requests carried out ahead (in-flight.ts).
   *
   * @defaultValue `33_554_432` (32 MiB)
   */
  readonly maxInFlightBytes?: number | undefined
  /**
   * Time for a request body to arrive once its headers are in.
   *
   * @defaultValue `10_000` (10 s)
   */
  readonly bodyTimeoutMs?: number | undefined
}

/**
 * The defaults of the limits of `HttpLimits`: the service reads its environment into these same
 * values (apps/server/config.ts), so a server given no limits is limited as the service is.
 */
export const HTTP_LIMIT_DEFAULTS = {
  maxConnections: 1000,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 65_000,
  maxBufferedAnswerBytes: 65_536,
  maxInFlightBytes: 32 * 2 ** 20,
  bodyTimeoutMs: 10_000,
} as const

/** The limits with a default in place of each one left out. */
export const limitsWithDefaults = (limits: HttpLimits) => ({
  ...limits,
  maxConnections: limits.maxConnections ?? HTTP_LIMIT_DEFAULTS.maxConnections,
  headersTimeoutMs: limits.headersTimeoutMs ?? HTTP_LIMIT_DEFAULTS.headersTimeoutMs,
  requestTimeoutMs: limits.requestTimeoutMs ?? HTTP_LIMIT_DEFAULTS.requestTimeoutMs,
  keepAliveTimeoutMs: limits.keepAliveTimeoutMs ?? HTTP_LIMIT_DEFAULTS.keepAliveTimeoutMs,
})

/** The pace asked of clients: the byte bounds and the body's deadline. */
export const paceOf = (limits: HttpLimits): ConnectionPace => ({
  maxBufferedBytes: limits.maxBufferedAnswerBytes ?? HTTP_LIMIT_DEFAULTS.maxBufferedAnswerBytes,
  maxInFlightBytes: limits.maxInFlightBytes ?? HTTP_LIMIT_DEFAULTS.maxInFlightBytes,
  heldTimeoutMs: limits.requestTimeoutMs ?? HTTP_LIMIT_DEFAULTS.requestTimeoutMs,
  bodyTimeoutMs: limits.bodyTimeoutMs ?? HTTP_LIMIT_DEFAULTS.bodyTimeoutMs,
})
