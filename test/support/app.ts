import * as E from 'fp-ts/lib/Either.js'
import { stringify } from 'lossless-json'
import { apiOptionsOf } from '../../apps/server/api-options.js'
import { composeApp, httpLimitsOf } from '../../apps/server/compose.js'
import type { Storage } from '../../apps/server/storage.js'
import type { Tracing } from '../../apps/server/tracing/tracing.js'
import { loadConfig, type Config } from '../../apps/server/config.js'
import { silentLogger, type Logger } from '../../core/index.js'
import type { ApiSettings, KoaAppOptions, RequestLine } from '../../adapters/koa/index.js'
import type { PrometheusMetrics } from '../../adapters/prometheus/index.js'
import { storageFor, type Backend } from './backends.js'
import { serve, type Client, type Reply } from './http.js'

export const TEST_KEY = 'test-key-0123456789abcdef'
export const OTHER_KEY = 'other.key~with+symbols/and='
export const auth = { Authorization: `Bearer ${TEST_KEY}` }

export type TestApiOptions = {
  readonly env?: Record<string, string>
  readonly storage?: Storage
  /** A fresh store of this kind, when no storage is given (default: in-memory). */
  readonly backend?: Backend
  readonly now?: () => number
  readonly logger?: Logger
  readonly metrics?: PrometheusMetrics
  readonly requestLine?: RequestLine
  readonly tracing?: Tracing
}

export const testConfig = (env: Record<string, string> = {}): Config => {
  // The configuration's defaults, rate limits included, as the service starts: a test sets only
  // what it is about.
  const loaded = loadConfig({ API_KEYS: `${TEST_KEY},${OTHER_KEY}`, ...env })
  if (E.isLeft(loaded)) throw new Error(loaded.left.join('; '))
  return loaded.right
}

/** The options the service would give the app, with the configuration's defaults. */
export const testApiOptions = (env: Record<string, string> = {}): ApiSettings & KoaAppOptions =>
  apiOptionsOf(testConfig(env))

export type TestApi = Client & {
  readonly basePath: string
  /** POSTs a JSON body (bigints written exactly) with the test key. */
  readonly createPet: (body: unknown) => Promise<Reply>
  /** GETs a path under the base path with the test key. */
  readonly get: (path: string) => Promise<Reply>
}

/** The real composition root on the in-memory store (or the given one), on an ephemeral port. */
export const startTestApi = async (options: TestApiOptions = {}): Promise<TestApi> => {
  const config = testConfig(options.env)
  const storage = options.storage ?? (await storageFor(options.backend ?? 'in-memory'))
  const app = composeApp(config, storage, config.apiKeys, options.logger ?? silentLogger, {
    now: options.now,
    metrics: options.metrics,
    requestLine: options.requestLine,
    tracing: options.tracing,
  })
  const client = await serve(app, httpLimitsOf(config))
  const basePath = config.basePath
  return {
    ...client,
    close: async () => {
      await client.close()
      await storage.close()
    },
    basePath,
    createPet: (body) =>
      client.request({
        method: 'POST',
        path: `${basePath}/pets`,
        headers: { ...auth, 'Content-Type': 'application/json' },
        body: typeof body === 'string' ? body : (stringify(body) as string),
      }),
    get: (path) => client.request({ path: `${basePath}${path}`, headers: auth }),
  }
}
