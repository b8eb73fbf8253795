import { randomBytes } from 'node:crypto'
import type Koa from 'koa'
import { createInMemoryIdempotencyStore } from '../../adapters/in-memory/index.js'
import { createKoaApp, type RequestLine } from '../../adapters/koa/index.js'
import type { PrometheusMetrics } from '../../adapters/prometheus/index.js'
import type { Logger } from '../../core/index.js'
import { apiKeysOf } from './api-keys.js'
import { apiOptionsOf } from './api-settings.js'
import type { Config } from './config.js'
import type { Storage } from './storage.js'

/** Keys to accept: the configured ones, or one generated for this run (announced once). */
export const apiKeysFor = (config: Config): { keys: ReadonlyArray<string>; generated: boolean } =>
  config.apiKeys.length > 0
    ? { keys: config.apiKeys, generated: false }
    : { keys: [randomBytes(24).toString('base64url')], generated: true }

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
      idempotencyStore: storage.idempotencyStore ?? createInMemoryIdempotencyStore(),
      ...(metrics === undefined ? {} : { observeRequest: metrics.observeRequest }),
      ...(requestLine === undefined ? {} : { requestLine }),
    },
    apiOptionsOf(config),
  )
