import { isIP } from 'node:net'
import * as t from 'io-ts'
import { parseIsoInstant } from '../../core/index.js'
import { isTrustedProxyEntry, type ProxyHeader, type TrustProxy } from '../../adapters/koa/index.js'

/*
 * io-ts codecs for environment values: each takes the raw string and says, when it refuses it,
 * what the value must look like. config.ts names the variable and supplies the default.
 */

const refine = <A>(
  name: string,
  is: t.Is<A>,
  parse: (raw: string) => A | undefined,
  rule: string,
) =>
  new t.Type<A, string, unknown>(
    name,
    is,
    (u, c) => {
      const value = typeof u === 'string' ? parse(u) : undefined
      return value === undefined ? t.failure(u, c, rule) : t.success(value)
    },
    String,
  )

export const integerFrom = (min: number, max: number) =>
  refine(
    'Integer',
    (u): u is number => typeof u === 'number' && Number.isInteger(u) && u >= min && u <= max,
    (raw) => (/^[0-9]{1,16}$/.test(raw) && +raw >= min && +raw <= max ? +raw : undefined),
    `must be an integer from ${min} to ${max}`,
  )

export const matching = (rule: RegExp, explain: string) =>
  refine(
    'Matching',
    (u): u is string => typeof u === 'string' && rule.test(u),
    (raw) => (rule.test(raw) ? raw : undefined),
    explain,
  )

export const oneOf = <A extends string>(values: ReadonlyArray<A>) =>
  refine(
    'OneOf',
    (u): u is A => values.includes(u as A),
    (raw) => values.find((v) => v === raw),
    `must be one of ${values.join(', ')}`,
  )

const isString = (u: unknown): u is string => typeof u === 'string'
export const anyString = refine('String', isString, (raw) => raw, 'must be a string')

/** A file's path: blanks alone name no file a user meant (a stray space in a deployment's env). */
export const filePath = refine(
  'FilePath',
  (u): u is string => isString(u) && u.trim() !== '',
  (raw) => (raw.trim() === '' ? undefined : raw),
  'must be a file path, not blanks',
)

/**
 * An instant in whole seconds from 1970 (the Deprecation header writes it as `@` and whole
 * seconds since then, so a fraction would be dropped) to `latest`, in ISO 8601 with a time zone.
 */
export const instantUntil = (latest: Date) => {
  const fits = (at: Date) => at.getTime() >= 0 && at.getTime() % 1000 === 0 && at <= latest
  return refine(
    'Instant',
    (u): u is Date => u instanceof Date && fits(u),
    (raw) => {
      const at = parseIsoInstant(raw)
      return at !== undefined && fits(at) ? at : undefined
    },
    `must be an ISO 8601 instant with a time zone in whole seconds (like 2026-01-01T00:00:00Z), from 1970 and not after ${latest.toISOString()}`,
  )
}

/** A test every entry of a list must pass, and what the refusal says of those that do not. */
export type EntryRule = readonly [(item: string) => boolean, string]

/**
 * A comma-separated list; blanks around and between entries are ignored. A refusal names the
 * entries that broke the first rule they break by position, so that it can be reported without
 * the value. A value of commas and blanks alone is refused: set, it was meant to hold something
 * (a secret that came out blank), and taking it as unset would quietly change what runs.
 */
export const listOf = (...rules: ReadonlyArray<EntryRule>) =>
  new t.Type<string[], string, unknown>(
    'List',
    (u): u is string[] =>
      Array.isArray(u) && u.every((item) => isString(item) && rules.every(([ok]) => ok(item))),
    (u, c) => {
      if (!isString(u)) return t.failure(u, c, rules[0]?.[1] ?? 'must be a list')
      const items = u
        .split(',')
        .map((item) => item.trim())
        .filter((item) => item !== '')
      if (items.length === 0)
        return t.failure(
          u,
          c,
          'holds no entry, only commas and blanks: unset it, or leave it empty, for none',
        )
      for (const [entry, explain] of rules) {
        const bad = items.flatMap((item, i) => (entry(item) ? [] : [i + 1]))
        if (bad.length === 0) continue
        const which =
          bad.length === 1 ? `entry ${bad[0]} is not` : `entries ${bad.join(', ')} are not`
        return t.failure(u, c, `${explain}: ${which} (of ${items.length})`)
      }
      return t.success(items)
    },
    (items) => items.join(','),
  )

/** A DNS name (RFC 1123): dot-separated labels of letters, digits and inner hyphens. */
const HOST_NAME =
  /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/

/**
 * An address to listen on: an IPv4 or IPv6 address, or a host name. All-digit names such as
 * `999.1.1.1` are refused: they can only be a mistyped IPv4 address.
 */
export const listenAddress = refine(
  'ListenAddress',
  isString,
  (raw) => (isIP(raw) !== 0 || (HOST_NAME.test(raw) && !/^[0-9.]+$/.test(raw)) ? raw : undefined),
  'must be an IP address (127.0.0.1, ::1, 0.0.0.0) or a host name',
)

/** A path whose `%` each start an escape of two hex digits, as RFC 3986 wants. */
const PATH_CHARACTERS = /^(?:[A-Za-z0-9\-._~!$&'()*+,;=:@/]|%[0-9A-Fa-f]{2})*$/

/**
 * Where an API lives, for the OpenAPI document's `servers`: an http(s) URL that parses, with a
 * host, no user, query or fragment, a well-formed path, and that path ending in `basePath`.
 */
export const serverUrlEndingIn = (basePath: string) =>
  refine(
    'ServerUrl',
    isString,
    (raw) => {
      // The scheme and host as written, then the path: nothing else (no query, no fragment).
      const path = /^https?:\/\/[^/?#\s]+(\/[^?#\s]*)$/i.exec(raw)?.[1]
      if (path === undefined || !PATH_CHARACTERS.test(path) || !path.endsWith(basePath))
        return undefined
      // A host and port that parse (not `[`, not port 99999), and no user in it.
      const url = URL.canParse(raw) ? new URL(raw) : undefined
      return url !== undefined && url.username === '' && url.password === '' ? raw : undefined
    },
    `must be an http(s) URL (no user, query or fragment) whose path ends in BASE_PATH ${basePath}`,
  )

/** A header name in any case: `X-Forwarded-For` or `Forwarded`. */
export const proxyHeader = refine<ProxyHeader>(
  'ProxyHeader',
  (u): u is ProxyHeader => u === 'x-forwarded-for' || u === 'forwarded',
  (raw) => {
    const name = raw.trim().toLowerCase()
    return name === 'x-forwarded-for' || name === 'forwarded' ? name : undefined
  },
  'must be the header the proxies write: X-Forwarded-For or Forwarded',
)

/**
 * The proxies in front: a hop count from 1 to 32, or a comma-separated list of their addresses,
 * networks and range names (`10.0.0.0/8, 2001:db8::/32, loopback`).
 */
export const trustProxy = refine<TrustProxy>(
  'TrustProxy',
  (u): u is TrustProxy => typeof u === 'object' && u !== null,
  (raw) => {
    if (/^[0-9]+$/.test(raw)) return +raw >= 1 && +raw <= 32 ? { hops: +raw } : undefined
    const entries = raw
      .split(',')
      .map((entry) => entry.trim())
      .filter((entry) => entry !== '')
    return entries.length > 0 && entries.every(isTrustedProxyEntry)
      ? { addresses: entries }
      : undefined
  },
  'must be a number of proxy hops from 1 to 32, or a comma-separated list of proxy addresses, networks and range names (10.0.0.1, 10.0.0.0/8, 2001:db8::/32, loopback, linklocal, uniquelocal)',
)
