import { GET_PET_DEPRECATED_DEFAULT, GET_PET_SUNSET } from '../../adapters/koa/index.js'

export type Config = {
  readonly port: number
  readonly host: string | undefined
  readonly basePath: string
  /** Empty when none is configured: the in-memory default then generates one. */
  readonly apiKeys: ReadonlyArray<string>
  readonly mongodbUri: string | undefined
  readonly logLevel: string
  readonly getPetDeprecatedAt: Date
  readonly retryAfterSeconds: number
  /** Upper bound of one database call; past it the request answers 503. */
  readonly storeTimeoutMs: number
  /** How long start-up waits for the database before giving up. */
  readonly startupTimeoutMs: number
  readonly productionUrl: string
  readonly stagingUrl: string
}

type Env = Readonly<Record<string, string | undefined>>
type Field<A> = { value: A } | { error: string }

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']
const KEY = /^[A-Za-z0-9\-._~+/]{1,512}=*$/

const integer = (
  raw: string | undefined,
  name: string,
  min: number,
  max: number,
  fallback: number,
): Field<number> => {
  if (raw === undefined || raw === '') return { value: fallback }
  const n = Number(raw)
  return /^[0-9]+$/.test(raw) && n >= min && n <= max
    ? { value: n }
    : { error: `${name} must be an integer from ${min} to ${max} (got "${raw}")` }
}

const matching = (
  raw: string | undefined,
  name: string,
  rule: RegExp,
  explain: string,
  fallback: string,
): Field<string> =>
  raw === undefined || raw === ''
    ? { value: fallback }
    : rule.test(raw)
      ? { value: raw }
      : { error: `${name} ${explain} (got "${raw}")` }

const apiKeysOf = (raw: string | undefined): Field<ReadonlyArray<string>> => {
  const keys = (raw ?? '')
    .split(',')
    .map((k) => k.trim())
    .filter((k) => k !== '')
  const bad = keys.findIndex((k) => !KEY.test(k))
  return bad < 0
    ? { value: keys }
    : {
        error: `API_KEYS entry ${bad + 1} is not a valid bearer token (letters, digits, -._~+/ then optional =, at most 512)`,
      }
}

const deprecatedAtOf = (raw: string | undefined): Field<Date> => {
  if (raw === undefined || raw === '') return { value: GET_PET_DEPRECATED_DEFAULT }
  const at = new Date(raw)
  if (Number.isNaN(at.getTime()))
    return { error: `GET_PET_DEPRECATED_AT must be an ISO 8601 instant (got "${raw}")` }
  return at <= GET_PET_SUNSET
    ? { value: at }
    : {
        error: `GET_PET_DEPRECATED_AT must not be after the sunset ${GET_PET_SUNSET.toISOString()}`,
      }
}

/**
 * A server of the OpenAPI document: its URL is where the API lives, so it ends in the base path
 * (by default the example host followed by BASE_PATH).
 */
const serverUrl = (
  raw: string | undefined,
  name: string,
  basePath: Field<string>,
  host: string,
): Field<string> => {
  if (!('value' in basePath)) return { value: '' } // BASE_PATH's own error is reported
  if (raw === undefined || raw === '')
    return { value: `https://${host}.animal-store.example${basePath.value}` }
  const path = /^https?:\/\/[^/\s]+(\S*)$/.exec(raw)?.[1]
  return path !== undefined && path.endsWith(basePath.value)
    ? { value: raw }
    : {
        error: `${name} must be an http(s) URL ending in BASE_PATH ${basePath.value} (got "${raw}")`,
      }
}

/** Decodes the environment once at start; every problem is reported, not only the first. */
export const loadConfig = (env: Env): { config: Config } | { errors: ReadonlyArray<string> } => {
  const basePath = matching(
    env.BASE_PATH,
    'BASE_PATH',
    /^(\/[A-Za-z0-9._~-]+)+$/,
    'must look like /v1 (segments, no trailing slash)',
    '/v1',
  )
  const fields = {
    port: integer(env.PORT, 'PORT', 0, 65535, 8080),
    host: { value: env.HOST === '' ? undefined : env.HOST },
    basePath,
    apiKeys: apiKeysOf(env.API_KEYS),
    mongodbUri: { value: env.MONGODB_URI === '' ? undefined : env.MONGODB_URI },
    logLevel: matching(
      env.LOG_LEVEL,
      'LOG_LEVEL',
      new RegExp(`^(${LOG_LEVELS.join('|')})$`),
      `must be one of ${LOG_LEVELS.join(', ')}`,
      'info',
    ),
    getPetDeprecatedAt: deprecatedAtOf(env.GET_PET_DEPRECATED_AT),
    retryAfterSeconds: integer(env.RETRY_AFTER_SECONDS, 'RETRY_AFTER_SECONDS', 1, 3600, 2),
    storeTimeoutMs: integer(env.STORE_TIMEOUT_MS, 'STORE_TIMEOUT_MS', 100, 60_000, 2000),
    startupTimeoutMs: integer(env.STARTUP_TIMEOUT_MS, 'STARTUP_TIMEOUT_MS', 0, 600_000, 30_000),
    productionUrl: serverUrl(env.PRODUCTION_URL, 'PRODUCTION_URL', basePath, 'api'),
    stagingUrl: serverUrl(env.STAGING_URL, 'STAGING_URL', basePath, 'staging.api'),
  }
  const errors = Object.values(fields).flatMap((f) => ('error' in f ? [f.error] : []))
  if (errors.length > 0) return { errors }
  const config = Object.fromEntries(
    Object.entries(fields).map(([k, f]) => [k, (f as { value: unknown }).value]),
  )
  return { config: config as Config }
}
