import { sequenceS } from 'fp-ts/lib/Apply.js'
import { IN_MEMORY_CAPACITY_DEFAULT } from '../../adapters/in-memory/index.js'
import * as E from 'fp-ts/lib/Either.js'
import { pipe } from 'fp-ts/lib/function.js'
import type * as t from 'io-ts'
import {
  API_SETTING_DEFAULTS,
  BEARER_TOKEN,
  HTTP_LIMIT_DEFAULTS,
  type RateLimitOptions,
  type TrustProxy,
} from '../../adapters/koa/index.js'
import { GET_PET_DEPRECATION } from '../../core/index.js'
import {
  anyString,
  filePath,
  instantUntil,
  integerFrom,
  listenAddress,
  listOf,
  matching,
  oneOf,
  proxyHeader,
  serverUrlEndingIn,
  trustProxy,
} from './env-codecs.js'
import { heapLimitBytes, heapShortfall, IN_FLIGHT_DEFAULT_BYTES, petsThatFit } from './heap-fit.js'
import { tracingWanted } from './tracing/settings.js'

export type Config = {
  readonly port: number
  readonly host: string | undefined
  readonly basePath: string
  /** Empty when none is configured: the in-memory default then generates one. */
  readonly apiKeys: ReadonlyArray<string>
  /** Minted keys (digests) on the in-memory default, written by `npm run keys -- --file`. */
  readonly apiKeysFile: string | undefined
  /** Undefined when RATE_LIMIT=off. */
  readonly rateLimits: RateLimitOptions | undefined
  readonly mongodbUri: string | undefined
  readonly logLevel: string
  /** Whether the request log has a line for each probe that succeeded. */
  readonly logProbes: boolean
  readonly getPetDeprecatedAt: Date
  readonly retryAfterSeconds: number
  /** Upper bound of one database call; past it the request answers 503. */
  readonly storeTimeoutMs: number
  /** How long start-up waits for the database before giving up. */
  readonly startupTimeoutMs: number
  readonly productionUrl: string
  readonly stagingUrl: string
  /**
   * Capacity of the in-memory store; past it a create answers 507. By default 1,000,000, or as
   * many as fit in the heap at the worst case when that is fewer (heap-fit.ts).
   */
  readonly maxPets: number
  /** Open connections at most (lowered to fit the descriptor limit); see http-server.ts. */
  readonly maxConnections: number
  /**
   * Connections from one client address (an IPv6 /64) at most; trusted proxies are exempt.
   * Undefined: half the connection cap.
   */
  readonly maxConnectionsPerAddress: number | undefined
  /** The share of MAX_CONNECTIONS, in percent, that connections without a valid key may hold. */
  readonly anonymousConnectionsPercent: number
  /** Time for a request's headers to arrive (slowloris). */
  readonly headersTimeoutMs: number
  /** Time for a whole request, body included, to arrive. */
  readonly requestTimeoutMs: number
  /** How long an idle keep-alive connection is kept. */
  readonly keepAliveTimeoutMs: number
  /** Bytes of answers waiting on a connection past which its pipelined requests are held back. */
  readonly maxBufferedAnswerBytes: number
  /** Bytes that work in flight may hold, summed over all connections; fits the heap with the pets. */
  readonly maxInFlightBytes: number
  /** Time for a request's body to arrive once its headers are in. */
  readonly bodyTimeoutMs: number
  /** After SIGTERM, how long /readyz answers 503 while the listener still accepts. */
  readonly shutdownDrainMs: number
  /** After SIGTERM, the time the process has to exit cleanly before a forced exit 1. */
  readonly shutdownTimeoutMs: number
  /** Where Prometheus scrapes `/metrics`; undefined: metrics are off. */
  readonly metricsPort: number | undefined
  readonly metricsHost: string
  /**
   * The proxies trusted to name the client, with the header they write (TRUST_PROXY_HEADER);
   * undefined: the peer is the client.
   */
  readonly trustProxy: TrustProxy | undefined
  /** Browser origins allowed by CORS; empty: CORS is off. */
  readonly corsOrigins: ReadonlyArray<string>
  /** Whether the OTEL_ variables ask for traces (tracing/settings.ts, which checks them all). */
  readonly tracing: boolean
}

/** A setting found invalid only when it is used (a MongoDB URI the driver refuses): exit 2. */
export class ConfigurationError extends Error {
  override readonly name = 'ConfigurationError'
}

export type Env = Readonly<Record<string, string | undefined>>

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const
const KEY = new RegExp(`^${BEARER_TOKEN}$`)
/** The shortest API_KEYS entry: a short key is guessed by trying (two characters in about a thousand tries). */
export const API_KEY_MIN_LENGTH = 16
/**
 * An http(s) origin exactly as a browser sends it: the URL Standard's own serialization of the
 * entry's origin is the entry itself. So the host is lower-case (an IPv6 address in brackets, in
 * its shortest form; a name in punycode), the port exists and is not the scheme's default (which
 * browsers leave out), and there is no path or user: `https://App.example`,
 * `https://app.example:443` or `https://app.example/` would never match an `Origin` header.
 */
const isBrowserOrigin = (entry: string): boolean => {
  try {
    const url = new URL(entry)
    const web = url.protocol === 'http:' || url.protocol === 'https:'
    return web && url.port !== '0' && url.origin === entry
  } catch {
    return false // not a URL at all
  }
}

/** Every problem is collected, not only the first. */
const Validation = E.getApplicativeValidation({
  concat: (a: ReadonlyArray<string>, b: ReadonlyArray<string>) => [...a, ...b],
})

/** Variables whose values are secrets: a refusal says what is wrong without repeating them. */
const SECRETS = new Set(['API_KEYS'])

/** One variable: its default when unset or empty, else its decoded value or what is wrong. */
const variable =
  (env: Env) =>
  <A, B = A>(
    name: string,
    codec: t.Decoder<unknown, A>,
    fallback: B,
  ): E.Either<string[], A | B> => {
    const raw = env[name]
    if (raw === undefined || raw === '') return E.right(fallback)
    const shown = SECRETS.has(name) ? '(the value is not shown: it holds keys)' : `(got "${raw}")`
    return E.mapLeft((errors: t.Errors) =>
      errors.map((e) => `${name} ${e.message ?? 'is not valid'} ${shown}`),
    )(codec.decode(raw))
  }

type Read = ReturnType<typeof variable>

/** A decoder of each Config field. */
type ConfigFields = { [K in keyof Config]-?: E.Either<string[], Config[K]> }

/**
 * The per-key bucket and the per-address budgets for failed authentications and for the
 * reference page; off with RATE_LIMIT=off.
 */
const rateLimitsOf = (read: Read): E.Either<string[], RateLimitOptions | undefined> =>
  pipe(
    sequenceS(Validation)({
      mode: read('RATE_LIMIT', oneOf(['on', 'off'] as const), 'on'),
      ratePerSecond: read('RATE_LIMIT_RPS', integerFrom(1, 1_000_000), 50_000),
      burst: read('RATE_LIMIT_BURST', integerFrom(1, 1_000_000), 100_000),
      failuresPerMinute: read('AUTH_FAILURE_RPM', integerFrom(1, 1_000_000), 60),
      failureBurst: read('AUTH_FAILURE_BURST', integerFrom(1, 1_000_000), 30),
      docsPerMinute: read('DOCS_RPM', integerFrom(1, 1_000_000), 60),
      docsBurst: read('DOCS_BURST', integerFrom(1, 1_000_000), 20),
    }),
    E.map((r) =>
      r.mode === 'off'
        ? undefined
        : {
            perKey: { ratePerSecond: r.ratePerSecond, burst: r.burst },
            authFailures: { ratePerSecond: r.failuresPerMinute / 60, burst: r.failureBurst },
            docs: { ratePerSecond: r.docsPerMinute / 60, burst: r.docsBurst },
          },
    ),
  )

/** TRUST_PROXY and the header its proxies write, which without TRUST_PROXY would mean nothing. */
const trustProxyOf = (read: Read): E.Either<string[], TrustProxy | undefined> =>
  pipe(
    sequenceS(Validation)({
      trust: read('TRUST_PROXY', trustProxy, undefined),
      header: read('TRUST_PROXY_HEADER', proxyHeader, undefined),
    }),
    E.chain(({ trust, header }) => {
      if (header === undefined) return E.right(trust)
      if (trust !== undefined) return E.right({ ...trust, header })
      return E.left([
        `TRUST_PROXY_HEADER needs TRUST_PROXY: without trusted proxies no forwarding header is read (got "${header}")`,
      ])
    }),
  )

/**
 * Decodes the environment once at start; every invalid variable is reported. `heapLimit` is the
 * heap the process has, which the in-memory store's capacity must fit.
 */
export const loadConfig = (
  env: Env,
  heapLimit: number = heapLimitBytes(),
): E.Either<ReadonlyArray<string>, Config> => {
  const read = variable(env)
  const maxInFlightBytes = read(
    'MAX_IN_FLIGHT_BYTES',
    integerFrom(1_048_576, 1_073_741_824),
    IN_FLIGHT_DEFAULT_BYTES,
  )
  // The pets that fit beside the work in flight (its own error, if any, is reported).
  const inFlight = E.isRight(maxInFlightBytes) ? maxInFlightBytes.right : undefined
  const basePath = read(
    'BASE_PATH',
    // A `.` or `..` segment would be resolved away by every client before it is sent.
    matching(
      /^(\/(?!\.\.?(?:\/|$))[A-Za-z0-9._~-]+)+$/,
      'must look like /v1 (segments, none of them . or .., no trailing slash)',
    ),
    API_SETTING_DEFAULTS.basePath,
  )
  /** A server of the OpenAPI document: where the API lives, so its URL ends in the base path. */
  const serverUrl = (name: string, host: string) =>
    E.isLeft(basePath) // BASE_PATH's own error is reported
      ? E.right('')
      : read(
          name,
          serverUrlEndingIn(basePath.right),
          `https://${host}.animal-store.example${basePath.right}`,
        )
  // Typed, so that a Config field without a read line, or a read line without a field, fails
  // to compile (an object literal's extra keys are errors).
  const fields: ConfigFields = {
    port: read('PORT', integerFrom(0, 65535), 8080),
    host: read('HOST', listenAddress, undefined),
    basePath,
    apiKeys: read(
      'API_KEYS',
      listOf(
        [
          (item) => KEY.test(item),
          'must be bearer tokens (letters, digits, -._~+/ then optional = padding, at most 512 before it)',
        ],
        [
          (item) => item.length >= API_KEY_MIN_LENGTH,
          `must be at least ${API_KEY_MIN_LENGTH} characters long, so that they cannot be guessed (make one with: openssl rand -base64 32, or mint keys with: npm run keys -- create --label NAME --file keys.jsonl, then set API_KEYS_FILE=keys.jsonl)`,
        ],
      ),
      [],
    ),
    apiKeysFile: read('API_KEYS_FILE', filePath, undefined),
    rateLimits: rateLimitsOf(read),
    mongodbUri: read('MONGODB_URI', anyString, undefined),
    logLevel: read('LOG_LEVEL', oneOf(LOG_LEVELS), 'info'),
    logProbes: E.map((v: 'on' | 'off') => v === 'on')(
      read('LOG_PROBES', oneOf(['on', 'off'] as const), 'off'),
    ),
    getPetDeprecatedAt: read(
      'GET_PET_DEPRECATED_AT',
      instantUntil(GET_PET_DEPRECATION.sunsetAt),
      GET_PET_DEPRECATION.defaultDeprecatedAt,
    ),
    retryAfterSeconds: read(
      'RETRY_AFTER_SECONDS',
      integerFrom(1, 3600),
      API_SETTING_DEFAULTS.retryAfterSeconds,
    ),
    storeTimeoutMs: read('STORE_TIMEOUT_MS', integerFrom(100, 60_000), 2000),
    startupTimeoutMs: read('STARTUP_TIMEOUT_MS', integerFrom(0, 600_000), 30_000),
    productionUrl: serverUrl('PRODUCTION_URL', 'api'),
    stagingUrl: serverUrl('STAGING_URL', 'staging.api'),
    maxPets: read(
      'MAX_PETS',
      integerFrom(1, 100_000_000),
      Math.max(1, Math.min(IN_MEMORY_CAPACITY_DEFAULT, petsThatFit(heapLimit, inFlight))),
    ),
    maxConnections: read(
      'MAX_CONNECTIONS',
      integerFrom(2, 1_000_000),
      HTTP_LIMIT_DEFAULTS.maxConnections,
    ),
    maxConnectionsPerAddress: read(
      'MAX_CONNECTIONS_PER_ADDRESS',
      integerFrom(1, 1_000_000),
      undefined,
    ),
    anonymousConnectionsPercent: read('ANONYMOUS_CONNECTIONS_PERCENT', integerFrom(1, 100), 50),
    headersTimeoutMs: read(
      'HEADERS_TIMEOUT_MS',
      integerFrom(500, 600_000),
      HTTP_LIMIT_DEFAULTS.headersTimeoutMs,
    ),
    requestTimeoutMs: read(
      'REQUEST_TIMEOUT_MS',
      integerFrom(500, 600_000),
      HTTP_LIMIT_DEFAULTS.requestTimeoutMs,
    ),
    keepAliveTimeoutMs: read(
      'KEEP_ALIVE_TIMEOUT_MS',
      integerFrom(1000, 600_000),
      HTTP_LIMIT_DEFAULTS.keepAliveTimeoutMs,
    ),
    maxBufferedAnswerBytes: read(
      'MAX_BUFFERED_ANSWER_BYTES',
      integerFrom(1024, 1_073_741_824),
      HTTP_LIMIT_DEFAULTS.maxBufferedAnswerBytes,
    ),
    maxInFlightBytes,
    bodyTimeoutMs: read(
      'BODY_TIMEOUT_MS',
      integerFrom(500, 600_000),
      HTTP_LIMIT_DEFAULTS.bodyTimeoutMs,
    ),
    shutdownDrainMs: read('SHUTDOWN_DRAIN_MS', integerFrom(0, 600_000), 2000),
    shutdownTimeoutMs: read('SHUTDOWN_TIMEOUT_MS', integerFrom(1000, 600_000), 10_000),
    metricsPort: read('METRICS_PORT', integerFrom(0, 65535), undefined),
    metricsHost: read('METRICS_HOST', listenAddress, '127.0.0.1'),
    trustProxy: trustProxyOf(read),
    corsOrigins: read(
      'CORS_ORIGINS',
      listOf([
        isBrowserOrigin,
        'entries must be origins exactly as browsers send them, like https://app.example:8443 or http://[::1]:3000 (lower-case host, a port from 1 to 65535 other than the scheme default, no path)',
      ]),
      [],
    ),
    tracing: tracingWanted(env),
  }
  const all = sequenceS(Validation)(fields)
  const conflicts = [...conflictsOf(fields), ...heapConflict(fields, heapLimit)]
  if (conflicts.length === 0) return all
  return E.left([...(E.isLeft(all) ? all.left : []), ...conflicts])
}

/**
 * A check between two variables, made once each is valid on its own, whatever the others: every
 * problem is reported in one go.
 */
const checkPair = <A, B>(
  a: E.Either<string[], A>,
  b: E.Either<string[], B>,
  problem: (a: A, b: B) => string | undefined,
): string[] => {
  const found = E.isRight(a) && E.isRight(b) ? problem(a.right, b.right) : undefined
  return found === undefined ? [] : [found]
}

/**
 * The in-memory store's pets must fit in the heap beside the work in flight (MongoDB keeps them
 * in the database).
 */
const heapConflict = (fields: ConfigFields, heapLimit: number): string[] => {
  const inFlight = E.isRight(fields.maxInFlightBytes) ? fields.maxInFlightBytes.right : undefined
  return checkPair(fields.maxPets, fields.mongodbUri, (maxPets, uri) =>
    uri === undefined ? heapShortfall(maxPets, heapLimit, inFlight) : undefined,
  )
}

/**
 * Variables that contradict each other. Node refuses a server whose headers may take longer than
 * the whole request they belong to; a drain as long as the shutdown budget leaves no time to
 * answer what was received, so every shutdown would end in the forced exit; on MongoDB the minted
 * keys live in the database, so a key file would be silently ignored.
 */
const conflictsOf = (fields: ConfigFields): string[] => [
  ...checkPair(fields.headersTimeoutMs, fields.requestTimeoutMs, (headers, request) =>
    headers <= request
      ? undefined
      : `REQUEST_TIMEOUT_MS must be at least HEADERS_TIMEOUT_MS (${headers}): the headers are part of the request (got "${request}")`,
  ),
  ...checkPair(fields.shutdownDrainMs, fields.shutdownTimeoutMs, (drain, budget) =>
    drain < budget
      ? undefined
      : `SHUTDOWN_DRAIN_MS must be less than SHUTDOWN_TIMEOUT_MS (${budget}): the timeout's budget includes the drain (got "${drain}")`,
  ),
  ...checkPair(fields.apiKeysFile, fields.mongodbUri, (file, uri) =>
    file === undefined || uri === undefined
      ? undefined
      : 'API_KEYS_FILE is for the in-memory store: with MONGODB_URI the minted keys live in the database (npm run keys writes them there)',
  ),
  ...portConflict(fields),
]

/** Every interface: HOST unset, or an address that means them all. */
const isEveryInterface = (host: string | undefined) =>
  host === undefined || host === '0.0.0.0' || host === '::'

/**
 * The API and the metrics on one port, where their addresses overlap (the same one, or either on
 * every interface): the second listener could never bind. Port 0 picks a free one for each.
 */
const portConflict = (fields: ConfigFields): string[] =>
  checkPair(
    sequenceS(Validation)({ port: fields.port, host: fields.host }),
    sequenceS(Validation)({ port: fields.metricsPort, host: fields.metricsHost }),
    (api, metrics) => {
      const overlap =
        api.host === metrics.host || isEveryInterface(api.host) || isEveryInterface(metrics.host)
      return api.port === 0 || api.port !== metrics.port || !overlap
        ? undefined
        : `METRICS_PORT must differ from PORT (${api.port}) where their addresses overlap (HOST ${api.host ?? 'unset'}, METRICS_HOST ${metrics.host}): two listeners cannot share a port (got "${metrics.port}")`
    },
  )
