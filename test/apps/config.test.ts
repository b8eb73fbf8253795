import { execFileSync } from 'node:child_process'
import { expect } from 'chai'
import * as E from 'fp-ts/lib/Either.js'
import { loadConfig, type Config } from '../../apps/server/config.js'
import { httpLimitsOf } from '../../apps/server/compose.js'
import {
  HEAP_BASE_BYTES,
  HEAP_PER_PET_BYTES,
  heapShortfall,
  IN_FLIGHT_DEFAULT_BYTES,
  petsThatFit,
} from '../../apps/server/heap-fit.js'

const configOf = (env: Record<string, string>): Config => {
  const loaded = loadConfig(env)
  if (E.isLeft(loaded)) throw new Error(loaded.left.join('\n'))
  return loaded.right
}

const errorsOf = (env: Record<string, string>): string => {
  const loaded = loadConfig(env)
  return E.isLeft(loaded) ? loaded.left.join('\n') : 'no errors'
}

describe('configuration from the environment', () => {
  it('has defaults that need no set-up', () => {
    const config = configOf({})
    expect(config).to.include({
      port: 8080,
      basePath: '/v1',
      logLevel: 'info',
      retryAfterSeconds: 2,
    })
    expect(config.apiKeys).to.deep.equal([])
    expect(config.host).to.equal(undefined)
    expect(config.getPetDeprecatedAt.toISOString()).to.equal('2026-01-01T00:00:00.000Z')
  })

  it('reads every variable', () => {
    expect(
      configOf({
        PORT: '9000',
        HOST: '127.0.0.1',
        BASE_PATH: '/api/v1',
        API_KEYS: ' a-key-0123456789abcdef , b-key-0123456789abcdef ,',
        LOG_LEVEL: 'warn',
        MONGODB_URI: 'mongodb://x/db',
        RETRY_AFTER_SECONDS: '7',
        STORE_TIMEOUT_MS: '500',
        STARTUP_TIMEOUT_MS: '0',
        GET_PET_DEPRECATED_AT: '2027-01-01T00:00:00Z',
      }),
    ).to.deep.include({
      port: 9000,
      host: '127.0.0.1',
      basePath: '/api/v1',
      apiKeys: ['a-key-0123456789abcdef', 'b-key-0123456789abcdef'],
      logLevel: 'warn',
      mongodbUri: 'mongodb://x/db',
      retryAfterSeconds: 7,
      storeTimeoutMs: 500,
      startupTimeoutMs: 0,
      getPetDeprecatedAt: new Date('2027-01-01T00:00:00Z'),
    })
  })

  it('treats an empty variable as unset', () => {
    expect(configOf({ PORT: '', HOST: '', LOG_LEVEL: '' })).to.include({
      port: 8080,
      host: undefined,
      logLevel: 'info',
    })
  })

  it('reports every invalid variable at once, each with its value', () => {
    const errors = errorsOf({
      PORT: '70000',
      BASE_PATH: 'v1/',
      API_KEYS: 'ok-0123456789abcdef,bad key',
      LOG_LEVEL: 'loud',
      GET_PET_DEPRECATED_AT: '2031-01-01T00:00:00Z',
      RETRY_AFTER_SECONDS: '0',
      STORE_TIMEOUT_MS: '1.5',
    })
    for (const expected of [
      'PORT must be an integer from 0 to 65535 (got "70000")',
      'BASE_PATH must look like /v1',
      'API_KEYS must be bearer tokens',
      'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent (got "loud")',
      'GET_PET_DEPRECATED_AT must be an ISO 8601 instant with a time zone in whole seconds (like 2026-01-01T00:00:00Z), from 1970 and not after 2030-12-05T00:00:00.000Z',
      'RETRY_AFTER_SECONDS must be an integer from 1 to 3600',
      'STORE_TIMEOUT_MS must be an integer from 100 to 60000 (got "1.5")',
    ])
      expect(errors).to.include(expected)
    expect(errors.split('\n')).to.have.length(7)
  })

  it('names the malformed API_KEYS entries without repeating any key', () => {
    const errors = errorsOf({
      API_KEYS: 'real-secret-one-0123, bad key ,real-secret-two-0123,é',
    })
    expect(errors).to.equal(
      'API_KEYS must be bearer tokens (letters, digits, -._~+/ then optional = padding, at most 512 before it): entries 2, 4 are not (of 4) (the value is not shown: it holds keys)',
    )
    expect(errors).to.not.include('secret')
  })

  it('refuses API_KEYS entries shorter than 16 characters, saying how to make one', () => {
    const errors = errorsOf({ API_KEYS: 'long-enough-0123456,short-secret,s2' })
    expect(errors).to.equal(
      'API_KEYS must be at least 16 characters long, so that they cannot be guessed (make one with: openssl rand -base64 32, or mint keys with: npm run keys -- create --label NAME --file keys.jsonl, then set API_KEYS_FILE=keys.jsonl): entries 2, 3 are not (of 3) (the value is not shown: it holds keys)',
    )
    expect(errors).to.not.include('secret')
    expect(configOf({ API_KEYS: 'a'.repeat(16) }).apiKeys).to.deep.equal(['a'.repeat(16)])
    // What the message suggests is accepted: 44 characters of base64.
    const generated = execFileSync('openssl', ['rand', '-base64', '32'], { encoding: 'utf8' })
    expect(configOf({ API_KEYS: generated.trim() }).apiKeys).to.have.length(1)
  })

  it('reports a conflict between two variables alongside the other invalid ones', () => {
    const errors = errorsOf({
      PORT: 'abc',
      REQUEST_TIMEOUT_MS: '5000',
      SHUTDOWN_DRAIN_MS: '20000',
      API_KEYS_FILE: 'keys.jsonl',
      MONGODB_URI: 'mongodb://127.0.0.1/x',
    }).split('\n')
    expect(errors.map((line) => line.split(' ')[0])).to.deep.equal([
      'PORT',
      'REQUEST_TIMEOUT_MS',
      'SHUTDOWN_DRAIN_MS',
      'API_KEYS_FILE',
    ])
  })
})

describe('configuration: GET_PET_DEPRECATED_AT', () => {
  const deprecatedAt = (value: string) =>
    configOf({ GET_PET_DEPRECATED_AT: value }).getPetDeprecatedAt.toISOString()

  it('reads an ISO 8601 instant in any zone, seconds and a zero fraction optional', () => {
    expect(deprecatedAt('2026-03-01T12:30Z')).to.equal('2026-03-01T12:30:00.000Z')
    expect(deprecatedAt('2026-01-01T01:00:00+01:00')).to.equal('2026-01-01T00:00:00.000Z')
    expect(deprecatedAt('2025-12-31T20:00:00.000-04:00')).to.equal('2026-01-01T00:00:00.000Z')
    expect(deprecatedAt('2028-02-29T00:00:00Z')).to.equal('2028-02-29T00:00:00.000Z')
    expect(deprecatedAt('1970-01-01T00:00:00Z')).to.equal('1970-01-01T00:00:00.000Z')
  })

  it('refuses what is not one, an impossible date, no zone, and a time before 1970', () => {
    for (const value of [
      '1', // new Date reads it as 2001, local time
      'December 17, 1995 03:24:00',
      '2026-02-30T00:00:00Z', // new Date makes it 2 March
      '2027-02-29T00:00:00Z',
      '2026-01-01T00:00:00', // no zone: local time to new Date
      '2026-01-01',
      '2026-01-01T24:00:00Z',
      '2026-01-01T00:60:00Z',
      '2026-01-01T00:00:60Z',
      '2026-01-01T00:00:00+24:00',
      '2026-13-01T00:00:00Z',
      '1969-12-31T23:59:59Z', // the Deprecation header counts seconds from 1970
      ' 2026-01-01T00:00:00Z',
      // The Deprecation header has whole seconds: a fraction would be dropped in silence.
      '2026-01-01T00:00:00.5Z',
      '2025-12-31T20:00:00.001-04:00',
    ])
      expect(errorsOf({ GET_PET_DEPRECATED_AT: value }), value).to.include(
        'GET_PET_DEPRECATED_AT must be an ISO 8601 instant with a time zone',
      )
  })
})

describe('configuration: limits and timeouts', () => {
  it('has documented defaults', () => {
    expect(configOf({})).to.include({
      maxPets: 1_000_000,
      maxConnections: 1000,
      maxConnectionsPerAddress: undefined,
      anonymousConnectionsPercent: 50,
      headersTimeoutMs: 10_000,
      requestTimeoutMs: 30_000,
      keepAliveTimeoutMs: 65_000,
      maxBufferedAnswerBytes: 65_536,
      maxInFlightBytes: 32 * 2 ** 20,
      bodyTimeoutMs: 10_000,
      shutdownDrainMs: 2000,
      shutdownTimeoutMs: 10_000,
    })
  })

  it('reads each one and refuses values out of range', () => {
    const config = configOf({
      MAX_PETS: '5',
      MAX_CONNECTIONS: '50',
      MAX_CONNECTIONS_PER_ADDRESS: '7',
      ANONYMOUS_CONNECTIONS_PERCENT: '100',
      HEADERS_TIMEOUT_MS: '1000',
      REQUEST_TIMEOUT_MS: '2000',
      KEEP_ALIVE_TIMEOUT_MS: '3000',
      MAX_BUFFERED_ANSWER_BYTES: '1024',
      MAX_IN_FLIGHT_BYTES: '1048576',
      BODY_TIMEOUT_MS: '500',
      SHUTDOWN_DRAIN_MS: '0',
      SHUTDOWN_TIMEOUT_MS: '4000',
    })
    expect(config).to.include({
      maxPets: 5,
      maxConnections: 50,
      maxConnectionsPerAddress: 7,
      anonymousConnectionsPercent: 100,
      headersTimeoutMs: 1000,
      requestTimeoutMs: 2000,
      keepAliveTimeoutMs: 3000,
      maxBufferedAnswerBytes: 1024,
      maxInFlightBytes: 1_048_576,
      bodyTimeoutMs: 500,
      shutdownDrainMs: 0,
      shutdownTimeoutMs: 4000,
    })
    const errors = errorsOf({
      MAX_PETS: '0',
      MAX_CONNECTIONS: '1',
      MAX_CONNECTIONS_PER_ADDRESS: '0',
      ANONYMOUS_CONNECTIONS_PERCENT: '101',
      HEADERS_TIMEOUT_MS: 'soon',
      REQUEST_TIMEOUT_MS: '-1',
      KEEP_ALIVE_TIMEOUT_MS: '10',
      MAX_BUFFERED_ANSWER_BYTES: '1023',
      MAX_IN_FLIGHT_BYTES: '1048575',
      BODY_TIMEOUT_MS: '499',
      SHUTDOWN_DRAIN_MS: '1e3',
      SHUTDOWN_TIMEOUT_MS: '999999999',
    })
    for (const name of [
      'MAX_PETS',
      'MAX_CONNECTIONS',
      'MAX_CONNECTIONS_PER_ADDRESS',
      'ANONYMOUS_CONNECTIONS_PERCENT',
      'HEADERS_TIMEOUT_MS',
      'REQUEST_TIMEOUT_MS',
      'KEEP_ALIVE_TIMEOUT_MS',
      'MAX_BUFFERED_ANSWER_BYTES',
      'MAX_IN_FLIGHT_BYTES',
      'BODY_TIMEOUT_MS',
      'SHUTDOWN_DRAIN_MS',
      'SHUTDOWN_TIMEOUT_MS',
    ])
      expect(errors).to.include(name)
  })

  it('refuses a whole request given less time than its headers (Node would not start)', () => {
    // REQUEST_TIMEOUT_MS alone, below the default HEADERS_TIMEOUT_MS (10000)
    expect(errorsOf({ REQUEST_TIMEOUT_MS: '8000' })).to.match(
      /REQUEST_TIMEOUT_MS must be at least HEADERS_TIMEOUT_MS \(10000\)/,
    )
    expect(errorsOf({ HEADERS_TIMEOUT_MS: '3000', REQUEST_TIMEOUT_MS: '2999' })).to.include(
      'REQUEST_TIMEOUT_MS',
    )
    expect(configOf({ HEADERS_TIMEOUT_MS: '3000', REQUEST_TIMEOUT_MS: '3000' })).to.include({
      headersTimeoutMs: 3000,
      requestTimeoutMs: 3000,
    })
  })

  it('refuses a drain that leaves the shutdown no time to answer (the budget includes it)', () => {
    expect(errorsOf({ SHUTDOWN_DRAIN_MS: '20000', SHUTDOWN_TIMEOUT_MS: '10000' })).to.match(
      /SHUTDOWN_DRAIN_MS must be less than SHUTDOWN_TIMEOUT_MS \(10000\)/,
    )
    expect(errorsOf({ SHUTDOWN_DRAIN_MS: '10000' })).to.include('SHUTDOWN_DRAIN_MS')
    expect(configOf({ SHUTDOWN_DRAIN_MS: '9999' })).to.include({ shutdownDrainMs: 9999 })
  })

  it('takes an IP address or a host name to listen on, and refuses anything else', () => {
    for (const host of ['127.0.0.1', '0.0.0.0', '::1', '::', 'localhost', 'api-1.internal'])
      expect(configOf({ HOST: host, METRICS_HOST: host }), host).to.include({
        host,
        metricsHost: host,
      })
    for (const host of [
      'not a host',
      '999.1.1.1',
      '1.2.3',
      '[::1]',
      '-a.example',
      'a_b',
      'x'.repeat(64),
    ]) {
      const errors = errorsOf({ HOST: host, METRICS_HOST: host })
      expect(errors, host).to.match(/^HOST must be an IP address .* or a host name/m)
      expect(errors, host).to.match(/^METRICS_HOST must be an IP address/m)
    }
  })

  it('refuses API_KEYS or CORS_ORIGINS set to commas and blanks alone, and takes empty as unset', () => {
    for (const value of [',', ' ', ' , ,'])
      for (const name of ['API_KEYS', 'CORS_ORIGINS'])
        expect(errorsOf({ [name]: value }), `${name}="${value}"`).to.match(
          new RegExp(`^${name} holds no entry, only commas and blanks`),
        )
    expect(errorsOf({ API_KEYS: ',' })).to.not.include('(got')
    expect(configOf({ API_KEYS: '', CORS_ORIGINS: '' })).to.deep.include({
      apiKeys: [],
      corsOrigins: [],
    })
  })

  it('refuses PORT and METRICS_PORT naming one port on addresses that overlap', () => {
    const conflict = /^METRICS_PORT must differ from PORT \(9100\) where their addresses overlap/
    for (const hosts of [
      {},
      { HOST: '127.0.0.1' },
      { HOST: '0.0.0.0', METRICS_HOST: '10.0.0.1' },
      { HOST: '10.0.0.1', METRICS_HOST: '::' },
    ])
      expect(
        errorsOf({ PORT: '9100', METRICS_PORT: '9100', ...hosts }),
        JSON.stringify(hosts),
      ).to.match(conflict)
    for (const env of [
      { PORT: '0', METRICS_PORT: '0' },
      { PORT: '9100', METRICS_PORT: '9101' },
      { PORT: '9100', METRICS_PORT: '9100', HOST: '127.0.0.1', METRICS_HOST: '127.0.0.2' },
    ])
      expect(errorsOf(env), JSON.stringify(env)).to.equal('no errors')
  })

  it("reports tracing's invalid values with every other variable's", () => {
    const errors = errorsOf({ PORT: 'abc', OTEL_TRACES_EXPORTER: 'console', TRACE_DETAIL: 'full' })
    expect(errors.split('\n').map((line) => line.split(' ')[0])).to.deep.equal([
      'PORT',
      'OTEL_TRACES_EXPORTER',
      'TRACE_DETAIL',
    ])
    expect(configOf({ OTEL_TRACES_EXPORTER: 'otlp' }).tracing).to.equal(true)
    expect(configOf({}).tracing).to.equal(false)
  })

  it('refuses a key file with MongoDB, where it would be ignored', () => {
    expect(
      errorsOf({ API_KEYS_FILE: 'keys.jsonl', MONGODB_URI: 'mongodb://127.0.0.1/x' }),
    ).to.match(/^API_KEYS_FILE is for the in-memory store/)
    expect(configOf({ API_KEYS_FILE: 'keys.jsonl' })).to.include({ apiKeysFile: 'keys.jsonl' })
  })

  describe('the OpenAPI servers follow BASE_PATH', () => {
    const urls = (env: Record<string, string>) => {
      const loaded = loadConfig(env)
      return E.isRight(loaded) ? [loaded.right.productionUrl, loaded.right.stagingUrl] : loaded.left
    }

    it('end in the base path by default', () => {
      expect(urls({})).to.deep.equal([
        'https://api.animal-store.example/v1',
        'https://staging.api.animal-store.example/v1',
      ])
      expect(urls({ BASE_PATH: '/api/v2' })).to.deep.equal([
        'https://api.animal-store.example/api/v2',
        'https://staging.api.animal-store.example/api/v2',
      ])
    })

    it('take URLs that end in the base path, behind a prefix too', () => {
      const env = {
        BASE_PATH: '/api/v2',
        PRODUCTION_URL: 'https://pets.example/api/v2',
        STAGING_URL: 'http://gateway.example:8443/pets/api/v2',
      }
      expect(urls(env)).to.deep.equal([env.PRODUCTION_URL, env.STAGING_URL])
    })

    it('refuse URLs that do not end in the base path, naming it', () => {
      expect(
        urls({
          BASE_PATH: '/api/v2',
          PRODUCTION_URL: 'https://pets.example/v1',
          STAGING_URL: 'https://api/v2',
        }),
      ).to.deep.equal([
        'PRODUCTION_URL must be an http(s) URL (no user, query or fragment) whose path ends in BASE_PATH /api/v2 (got "https://pets.example/v1")',
        'STAGING_URL must be an http(s) URL (no user, query or fragment) whose path ends in BASE_PATH /api/v2 (got "https://api/v2")',
      ])
      expect(
        urls({ PRODUCTION_URL: 'https://pets.example/xv1', STAGING_URL: 'ftp://s/v1' }),
      ).to.have.length(2)
    })

    for (const url of [
      'https://[/v1',
      'https://pets.example:99999/v1',
      'https://pets.example?/v1',
      'https://pets.example/x?q=/v1',
      'https://pets.example#/v1',
      'https://pets.example/a%/v1',
      'https://pets.example/a%zz/v1',
      'https://user:secret@pets.example/v1',
      'https://pets.example/a b/v1',
    ])
      it(`refuse ${url}: it would be published in the OpenAPI document as it is`, () => {
        expect(urls({ PRODUCTION_URL: url })).to.deep.equal([
          `PRODUCTION_URL must be an http(s) URL (no user, query or fragment) whose path ends in BASE_PATH /v1 (got ${JSON.stringify(url)})`,
        ])
      })

    it('take an IPv6 host, a port and escapes in the path', () => {
      const env = {
        PRODUCTION_URL: 'https://[::1]:8443/v1',
        STAGING_URL: 'http://gateway.example/pets%20api/v1',
      }
      expect(urls(env)).to.deep.equal([env.PRODUCTION_URL, env.STAGING_URL])
    })

    for (const basePath of ['/..', '/.', '/api/../v1', '/api/./v1', '/v1/..'])
      it(`refuse the base path ${basePath}: clients resolve dot segments away before sending`, () => {
        expect(urls({ BASE_PATH: basePath })).to.deep.equal([
          `BASE_PATH must look like /v1 (segments, none of them . or .., no trailing slash) (got ${JSON.stringify(basePath)})`,
        ])
      })

    it('take segments that only contain dots among other characters', () => {
      expect(urls({ BASE_PATH: '/.well-known/v1.2' })).to.deep.equal([
        'https://api.animal-store.example/.well-known/v1.2',
        'https://staging.api.animal-store.example/.well-known/v1.2',
      ])
    })

    it('report only BASE_PATH when it is itself invalid', () => {
      expect(urls({ BASE_PATH: 'v2', PRODUCTION_URL: 'https://p.example/v2' })).to.deep.equal([
        'BASE_PATH must look like /v1 (segments, none of them . or .., no trailing slash) (got "v2")',
      ])
    })
  })
})

describe('configuration: TRUST_PROXY', () => {
  it('is none by default: the peer is the client', () => {
    expect(configOf({}).trustProxy).to.equal(undefined)
  })

  it('takes a hop count or a list of addresses and networks', () => {
    expect(configOf({ TRUST_PROXY: '2' }).trustProxy).to.deep.equal({ hops: 2 })
    expect(
      configOf({ TRUST_PROXY: ' 10.0.0.1, 10.0.0.0/8 ,2001:db8::/32,::1' }).trustProxy,
    ).to.deep.equal({ addresses: ['10.0.0.1', '10.0.0.0/8', '2001:db8::/32', '::1'] })
    expect(configOf({ TRUST_PROXY: 'loopback,uniquelocal' }).trustProxy).to.deep.equal({
      addresses: ['loopback', 'uniquelocal'],
    })
  })

  it('takes the header the proxies write, in any case, only with TRUST_PROXY', () => {
    expect(
      configOf({ TRUST_PROXY: '1', TRUST_PROXY_HEADER: 'Forwarded' }).trustProxy,
    ).to.deep.equal({ hops: 1, header: 'forwarded' })
    expect(
      configOf({ TRUST_PROXY: '::1', TRUST_PROXY_HEADER: 'X-Forwarded-For' }).trustProxy,
    ).to.deep.equal({ addresses: ['::1'], header: 'x-forwarded-for' })
    expect(errorsOf({ TRUST_PROXY_HEADER: 'forwarded' })).to.equal(
      'TRUST_PROXY_HEADER needs TRUST_PROXY: without trusted proxies no forwarding header is read (got "forwarded")',
    )
    expect(errorsOf({ TRUST_PROXY: '1', TRUST_PROXY_HEADER: 'X-Real-IP' })).to.equal(
      'TRUST_PROXY_HEADER must be the header the proxies write: X-Forwarded-For or Forwarded (got "X-Real-IP")',
    )
  })

  for (const value of [
    '0',
    '33',
    '-1',
    'yes',
    'true',
    '10.0.0.0/33',
    '2001:db8::/129',
    '10.0.0.1/8/2',
    '10.0.0.0/',
    'proxy.example',
    '10.0.0.1,nope',
    'Loopback',
    'private',
    ',',
  ])
    it(`refuses ${JSON.stringify(value)}, saying what it must be`, () => {
      expect(errorsOf({ TRUST_PROXY: value })).to.equal(
        `TRUST_PROXY must be a number of proxy hops from 1 to 32, or a comma-separated list of proxy addresses, networks and range names (10.0.0.1, 10.0.0.0/8, 2001:db8::/32, loopback, linklocal, uniquelocal) (got "${value}")`,
      )
    })
})

describe('configuration: MAX_PETS against the heap', () => {
  const MB = 2 ** 20
  const HEAP_RESERVE_BYTES = HEAP_BASE_BYTES + IN_FLIGHT_DEFAULT_BYTES

  it('is 1,000,000 by default when the heap holds them at the worst case', () => {
    expect(loadConfig({}, 4096 * MB)).to.deep.include({
      right: { ...configOf({}), maxPets: 1_000_000 },
    })
  })

  it('is lowered by default to what fits in a smaller heap', () => {
    const loaded = loadConfig({}, 256 * MB)
    const fit = petsThatFit(256 * MB)
    expect(fit).to.equal(Math.floor((256 * MB - HEAP_RESERVE_BYTES) / HEAP_PER_PET_BYTES))
    expect(E.isRight(loaded) && loaded.right.maxPets).to.equal(fit)
  })

  it('refuses a MAX_PETS the heap cannot hold, naming both figures', () => {
    const loaded = loadConfig({ MAX_PETS: '150000' }, 256 * MB)
    const needs = Math.round((150_000 * HEAP_PER_PET_BYTES + HEAP_RESERVE_BYTES) / MB)
    expect(E.isLeft(loaded) && loaded.left).to.deep.equal([
      `MAX_PETS 150000 needs ${needs} MB of heap at the worst case (${HEAP_PER_PET_BYTES} bytes a pet and ${HEAP_RESERVE_BYTES / MB} MB), but this process has 256 MB (heap_size_limit): at most ${petsThatFit(256 * MB)} pets fit; lower MAX_PETS or MAX_IN_FLIGHT_BYTES, or give node a larger heap (--max-old-space-size, in NODE_OPTIONS)`,
    ])
    const fits = loadConfig({ MAX_PETS: String(petsThatFit(256 * MB)) }, 256 * MB)
    expect(E.isRight(fits)).to.equal(true)
  })

  it('leaves MAX_PETS unchecked on MongoDB, which keeps the pets', () => {
    const loaded = loadConfig(
      { MAX_PETS: '150000', MONGODB_URI: 'mongodb://x/db', API_KEYS: 'k-0123456789abcdef' },
      256 * MB,
    )
    expect(E.isRight(loaded)).to.equal(true)
  })

  it('names two figures that differ when whole MB would show them equal', () => {
    // One pet past what fits needs from 1 to 3,300 bytes more than the heap: the same MB.
    const heap = HEAP_RESERVE_BYTES + 17_794 * HEAP_PER_PET_BYTES + HEAP_PER_PET_BYTES - 1
    const refusal = heapShortfall(17_795, heap) ?? ''
    const [, needs, has] = /needs (.*) of heap .* this process has (.*) \(heap_size_limit\)/.exec(
      refusal,
    ) ?? ['', '', '']
    expect(needs, refusal).to.equal(`${heap + 1} bytes`)
    expect(has).to.equal(`${heap} bytes`)
  })

  it('refuses to start on a heap too small for any pet', () => {
    const loaded = loadConfig({}, 90 * MB)
    expect(E.isLeft(loaded) && loaded.left[0]).to.match(
      /^MAX_PETS 1 needs 96 MB .* this process has 90 MB/,
    )
  })
})

describe('configuration: the server limits it gives', () => {
  it('MAX_CONNECTIONS_PER_ADDRESS unset is half the connection cap, as lowered to fit', () => {
    expect(httpLimitsOf(configOf({})).maxConnectionsPerAddress).to.equal(500)
    expect(httpLimitsOf(configOf({ MAX_CONNECTIONS: '301' })).maxConnectionsPerAddress).to.equal(
      150,
    )
    expect(httpLimitsOf(configOf({}), 200).maxConnectionsPerAddress).to.equal(100)
    const set = configOf({ MAX_CONNECTIONS_PER_ADDRESS: '7' })
    expect(httpLimitsOf(set, 200).maxConnectionsPerAddress).to.equal(7)
  })

  it("hands the byte bounds and the bodies' deadline to the listening server", () => {
    const env = {
      MAX_BUFFERED_ANSWER_BYTES: '2048',
      MAX_IN_FLIGHT_BYTES: '2000000',
      BODY_TIMEOUT_MS: '700',
    }
    expect(httpLimitsOf(configOf(env))).to.include({
      maxBufferedAnswerBytes: 2048,
      maxInFlightBytes: 2_000_000,
      bodyTimeoutMs: 700,
    })
  })
})

describe('configuration: the in-flight budget against the heap', () => {
  const MB = 2 ** 20
  it('counts MAX_IN_FLIGHT_BYTES beside the pets: a larger budget leaves fewer pets', () => {
    const fit = petsThatFit(256 * MB)
    const larger = loadConfig({ MAX_IN_FLIGHT_BYTES: String(64 * MB) }, 256 * MB)
    const fewer = fit - Math.ceil((32 * MB) / HEAP_PER_PET_BYTES)
    expect(E.isRight(larger) && larger.right.maxPets).to.be.within(fewer, fewer + 1)
    const both = loadConfig(
      { MAX_PETS: String(fit), MAX_IN_FLIGHT_BYTES: String(64 * MB) },
      256 * MB,
    )
    expect(E.isLeft(both) && both.left.join('\n')).to.match(
      /^MAX_PETS .* 128 MB\).*MAX_IN_FLIGHT_BYTES/,
    )
  })
})
