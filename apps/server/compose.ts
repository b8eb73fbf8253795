import { randomBytes } from 'node:crypto'
import type Koa from 'koa'
import { createInMemoryIdempotencyStore } from '../../adapters/in-memory/index.js'
import {
  createKoaApp,
  GET_PET_SUNSET,
  openApiJson,
  type HttpLimits,
  type RequestLine,
} from '../../adapters/koa/index.js'
import { HARD_BOUND_FACTOR } from '../../adapters/mongodb/deadline.js'
import type { PrometheusMetrics } from '../../adapters/prometheus/index.js'
import type { Logger } from '../../core/index.js'
import { apiKeysOf } from './api-keys.js'
import type { Config } from './config.js'
import type { Storage } from './storage.js'

/** The request body limit: a NewPet is well under 1 KiB even with a 200-character name. */
export const MAX_BODY_BYTES = 8192

/**
 * How long a keyed create holds its Idempotency-Key: a store call ends within HARD_BOUND_FACTOR
 * times STORE_TIMEOUT_MS whatever the database does, so the insert is over by then; one budget
 * more to spare. An instance that dies mid-create leaves its keys held no longer than this
 * (6 s by default), where the library's default of 30 s knows nothing of the store.
 */
export const idempotencyLeaseMs = (config: Pick<Config, 'storeTimeoutMs'>): number =>
  (HARD_BOUND_FACTOR + 1) * config.storeTimeoutMs

/** Keys to accept: the configured ones, or one generated for this run (announced once). */
export const apiKeysFor = (config: Config): { keys: ReadonlyArray<string>; generated: boolean } =>
  config.apiKeys.length > 0
    ? { keys: config.apiKeys, generated: false }
    : { keys: [randomBytes(24).toString('base64url')], generated: true }

/** The listening server's limits, with the connection cap `cap` (MAX_CONNECTIONS, or lower). */
export const httpLimitsOf = (config: Config, cap: number = config.maxConnections): HttpLimits => ({
  maxConnections: cap,
  maxAnonymousConnections: Math.max(
    1,
    Math.floor((cap * config.anonymousConnectionsPercent) / 100),
  ),
  maxConnectionsPerAddress: config.maxConnectionsPerAddress,
  trustProxy: config.trustProxy,
  headersTimeoutMs: config.headersTimeoutMs,
  requestTimeoutMs: config.requestTimeoutMs,
  keepAliveTimeoutMs: config.keepAliveTimeoutMs,
})

export type ComposeExtras = {
  /** The clock, in epoch milliseconds: Date.now unless a test freezes it. */
  readonly now?: (() => number) | undefined
  readonly metrics?: PrometheusMetrics | undefined
  /** A faster writer of the request log line than `logger.info` (main's: request-line.ts). */
  readonly requestLine?: RequestLine | undefined
}

/** The composition root: one adapter per port, wired into the Koa app. */
export const composeApp = (
  config: Config,
  storage: Storage,
  keys: ReadonlyArray<string>,
  logger: Logger,
  { now = Date.now, metrics, requestLine }: ComposeExtras = {},
): Koa =>
  createKoaApp(
    {
      ...(metrics === undefined ? storage.store : metrics.measureStore(storage.store)),
      ...apiKeysOf(config, storage, keys, logger),
      logger,
      now,
      checkReadiness: storage.checkReadiness,
      idempotency: storage.idempotency ?? createInMemoryIdempotencyStore(),
      ...(metrics === undefined ? {} : { observeRequest: metrics.observeRequest }),
      ...(requestLine === undefined ? {} : { requestLine }),
    },
    {
      basePath: config.basePath,
      maxBodyBytes: MAX_BODY_BYTES,
      retryAfterSeconds: config.retryAfterSeconds,
      deprecation: { deprecatedAt: config.getPetDeprecatedAt, sunsetAt: GET_PET_SUNSET },
      openApiJson: openApiJson({
        productionUrl: config.productionUrl,
        stagingUrl: config.stagingUrl,
        maxBodyBytes: MAX_BODY_BYTES,
      }),
      corsOrigins: config.corsOrigins,
      trustProxy: config.trustProxy,
      ...(config.rateLimits === undefined ? {} : { rateLimits: config.rateLimits }),
      idempotencyLeaseMs: idempotencyLeaseMs(config),
    },
  )
