import { randomBytes } from 'node:crypto'
import type Koa from 'koa'
import { bootstrapKey, createInMemoryIdempotencyStore } from '../../adapters/in-memory/index.js'
import {
  createKoaApp,
  type HttpLimits,
  type KoaAppDeps,
  type RequestLine,
} from '../../adapters/koa/index.js'
import type { PrometheusMetrics } from '../../adapters/prometheus/index.js'
import type { Logger, StoredKey } from '../../core/index.js'
import { apiKeysOf } from './api-keys.js'
import { apiOptionsOf } from './api-options.js'
import type { Config } from './config.js'
import type { Storage } from './storage.js'
import type { Tracing } from './tracing/tracing.js'

/** How long the key generated for a run with no key source is accepted. */
export const GENERATED_KEY_LIFETIME_MS = 24 * 3_600_000

export type GeneratedKey = { readonly key: string; readonly stored: StoredKey }

/**
 * The key for a run with no key source at all (no API_KEYS, API_KEYS_FILE nor MONGODB_URI):
 * every scope, for GENERATED_KEY_LIFETIME_MS or until the process stops. With any source
 * configured, none is made, so that no key is ever printed where logs go.
 */
export const generatedKeyFor = (
  config: Pick<Config, 'apiKeys' | 'apiKeysFile' | 'mongodbUri'>,
  now: number,
): GeneratedKey | undefined => {
  const configured =
    config.apiKeys.length > 0 || config.apiKeysFile !== undefined || config.mongodbUri !== undefined
  if (configured) return undefined
  const key = randomBytes(24).toString('base64url')
  const stored = { ...bootstrapKey(key), label: 'generated', createdAt: now }
  return { key, stored: { ...stored, expiresAt: now + GENERATED_KEY_LIFETIME_MS } }
}

/** The listening server's limits, with the connection cap `cap` (MAX_CONNECTIONS, or lower). */
export const httpLimitsOf = (config: Config, cap: number = config.maxConnections): HttpLimits => ({
  maxConnections: cap,
  maxAnonymousConnections: Math.max(
    1,
    Math.floor((cap * config.anonymousConnectionsPercent) / 100),
  ),
  maxConnectionsPerAddress: config.maxConnectionsPerAddress ?? Math.max(1, Math.floor(cap / 2)),
  trustProxy: config.trustProxy,
  headersTimeoutMs: config.headersTimeoutMs,
  requestTimeoutMs: config.requestTimeoutMs,
  keepAliveTimeoutMs: config.keepAliveTimeoutMs,
  maxBufferedAnswerBytes: config.maxBufferedAnswerBytes,
  maxInFlightBytes: config.maxInFlightBytes,
  bodyTimeoutMs: config.bodyTimeoutMs,
})

export type ComposeExtras = {
  /** The clock, in epoch milliseconds: Date.now unless a test freezes it. */
  readonly now?: (() => number) | undefined
  readonly metrics?: PrometheusMetrics | undefined
  /** A faster writer of the request log line than `logger.info` (main's: request-line.ts). */
  readonly requestLine?: RequestLine | undefined
  /** Spans for each request, its operation and its store calls, when tracing is on. */
  readonly tracing?: Tracing | undefined
}

/** The stores as the app sees them: with spans when tracing, then measured when metrics are on. */
const storesOf = (
  config: Config,
  storage: Storage,
  { metrics, tracing }: ComposeExtras,
): Pick<KoaAppDeps, 'store' | 'idempotencyStore'> => {
  const spans = tracing?.storeSpans(config.mongodbUri === undefined ? undefined : 'mongodb')
  const idempotencyStore = storage.idempotencyStore ?? createInMemoryIdempotencyStore()
  const store = spans === undefined ? storage.store : spans.tracePetStore(storage.store)
  return {
    store: metrics === undefined ? store : metrics.measureStore(store),
    idempotencyStore:
      spans === undefined ? idempotencyStore : spans.traceIdempotencyStore(idempotencyStore),
  }
}

/** The composition root: one adapter per port, wired into the Koa app. */
export const composeApp = (
  config: Config,
  storage: Storage,
  keys: ReadonlyArray<string | StoredKey>,
  logger: Logger,
  extras: ComposeExtras = {},
): Koa => {
  const { now = Date.now, metrics, requestLine, tracing } = extras
  return createKoaApp(
    {
      ...storesOf(config, storage, extras),
      apiKeys: apiKeysOf(config, storage, keys, logger),
      logger,
      now,
      checkReadiness: storage.checkReadiness,
      ...(metrics === undefined ? {} : { observeRequest: metrics.observeRequest }),
      ...(requestLine === undefined ? {} : { requestLine }),
      ...(tracing === undefined ? {} : { tracer: tracing.requestTracer }),
    },
    apiOptionsOf(config),
  )
}
