import { expect } from 'chai'
import type { AppContext } from '../../../adapters/koa/request/app-state.js'
import { createRateLimits, type RateLimitOptions } from '../../../adapters/koa/app/rate-limits.js'
import { auth, OTHER_KEY, startTestApi, testConfig, type TestApi } from '../../support/app.js'
import { expectError } from '../../support/expect-error.js'
import type { Reply } from '../../support/http.js'
import { tempKeyFile } from '../../support/minted-keys.js'

describe('HTTP: rate limits (per key, and failures per client address)', () => {
  let api: TestApi
  let now = Date.now()
  const other = { Authorization: `Bearer ${OTHER_KEY}` }
  const wrong = { Authorization: 'Bearer wrong-key-guess' }
  const call = (headers: Record<string, string>, path = '/v1/pets', method = 'GET') =>
    api.request({ method, path, headers })

  beforeEach(async () => {
    now = Date.now()
    api = await startTestApi({
      env: {
        RATE_LIMIT: 'on',
        RATE_LIMIT_RPS: '2',
        RATE_LIMIT_BURST: '3',
        AUTH_FAILURE_RPM: '60',
        AUTH_FAILURE_BURST: '2',
      },
      now: () => now,
    })
  })
  afterEach(() => api.close())

  it('describes the policy and what is left on every authenticated answer', async () => {
    const replies = [
      await call(auth),
      await call(auth, '/v1/nowhere'),
      await call(auth, '/v1/pets', 'DELETE'),
    ]
    expect(replies.map((r) => r.status)).to.deep.equal([200, 404, 405])
    replies.forEach((reply, i) => {
      expect(reply.headers['ratelimit-policy']).to.equal('"default";q=3;w=2')
      // t: seconds until the bucket is full again, at 2 tokens a second.
      expect(reply.headers.ratelimit).to.equal(`"default";r=${2 - i};t=${[1, 1, 2][i]}`)
    })
  })

  it('answers 429 rate_limited with Retry-After past the burst, per key, and refills with time', async () => {
    for (let i = 0; i < 3; i++) expect((await call(auth)).status).to.equal(200)
    const refused = await call(auth)
    expectError(refused, 429, 'rate_limited')
    expect(refused.headers['retry-after']).to.equal('1')
    expect(refused.headers.ratelimit).to.equal('"default";r=0;t=2')
    expect(refused.headers['ratelimit-policy']).to.equal('"default";q=3;w=2')
    expect((await call(other)).status).to.equal(200)
    now += 500
    expect((await call(auth)).status).to.equal(200)
    expect((await call(auth)).status).to.equal(429)
  })

  it('counts a refused write like any request', async () => {
    const body = '{"name":"Rex","categoryId":1}'
    const headers = { ...auth, 'Content-Type': 'application/json' }
    for (let i = 0; i < 3; i++)
      expect(
        (await api.request({ method: 'POST', path: '/v1/pets', headers, body })).status,
      ).to.equal(201)
    expectError(
      await api.request({ method: 'POST', path: '/v1/pets', headers, body }),
      429,
      'rate_limited',
    )
  })

  it('tells a failing address to back off: past the failure burst it gets 429 for requests without a valid key', async () => {
    for (let i = 0; i < 2; i++) {
      const reply = await call(wrong)
      expectError(reply, 401, 'unauthorized')
      expect(reply.headers['ratelimit-policy']).to.equal('"auth-failures";q=2;w=2')
      expect(reply.headers.ratelimit).to.equal(`"auth-failures";r=${1 - i};t=${2 - (1 - i)}`)
    }
    for (const headers of [wrong, {}]) {
      const reply = await call(headers)
      expectError(reply, 429, 'rate_limited')
      expect(reply.headers['retry-after']).to.equal('1')
      expect(reply.headers.ratelimit).to.equal('"auth-failures";r=0;t=2')
    }
    now += 1000
    expectError(await call(wrong), 401, 'unauthorized')
  })

  it('never refuses a valid key for the failures of its address', async () => {
    for (let i = 0; i < 5; i++) await call(wrong)
    expectError(await call({}), 429, 'rate_limited')
    const reply = await call(auth)
    expect(reply.status).to.equal(200)
    expect(reply.headers.ratelimit).to.match(/^"default";/)
  })

  it('leaves successful requests out of the failure budget', async () => {
    for (let i = 0; i < 3; i++) expect((await call(auth)).status).to.equal(200)
    expectError(await call(wrong), 401, 'unauthorized')
    expectError(await call(wrong), 401, 'unauthorized')
  })
})

describe('HTTP: rate limits count refused requests (403, 404, 429) like any', () => {
  const file = tempKeyFile()
  let api: TestApi
  let now = Date.now()
  let reader: Record<string, string>
  const expectLeft = (reply: Reply, left: number) =>
    expect(reply.headers.ratelimit, reply.text).to.match(new RegExp(`^"default";r=${left};`))

  before(async () => {
    reader = { Authorization: `Bearer ${(await file.mint(['pets:read'])).key}` }
  })
  after(() => file.remove())
  beforeEach(async () => {
    now = Date.now()
    api = await startTestApi({
      env: { API_KEYS_FILE: file.path, RATE_LIMIT_RPS: '2', RATE_LIMIT_BURST: '3' },
      now: () => now, // frozen: nothing refills between the requests
    })
  })
  afterEach(() => api.close())

  it('takes a token for each 403: past the burst, the key is refused what its scope allows', async () => {
    const post = () =>
      api.request({
        method: 'POST',
        path: '/v1/pets',
        headers: { ...reader, 'Content-Type': 'application/json' },
        body: '{"name":"Rex","categoryId":1}',
      })
    for (let i = 0; i < 3; i++) {
      const reply = await post()
      expectError(reply, 403, 'insufficient_scope')
      expectLeft(reply, 2 - i)
    }
    expectError(await api.request({ path: '/v1/pets', headers: reader }), 429, 'rate_limited')
  })

  it('takes a token for each 404: no such pet, and no such path', async () => {
    for (const [i, path] of ['/v1/pets/999', '/v1/nowhere', '/v1/pets/998'].entries()) {
      const reply = await api.request({ path, headers: auth })
      expectError(reply, 404, 'not_found')
      expectLeft(reply, 2 - i)
    }
    expectError(await api.request({ path: '/v1/pets', headers: auth }), 429, 'rate_limited')
  })

  it('answers every request past the burst from the bucket: 429s do not get through, whatever the path', async () => {
    for (let i = 0; i < 3; i++) expect((await api.get('/pets')).status).to.equal(200)
    for (const path of ['/v1/pets', '/v1/nowhere', '/v1/pets/1', '/v1/pets']) {
      const reply = await api.request({ path, headers: auth })
      expectError(reply, 429, 'rate_limited')
      expectLeft(reply, 0)
      expect(reply.headers['retry-after']).to.equal('1')
    }
    // Another key has its own bucket.
    expect((await api.request({ path: '/v1/pets', headers: reader })).status).to.equal(200)
  })
})

describe('rate limits: at most 10,000 buckets of each kind by default', () => {
  /** Enough of a context for the limits: the headers they set, by name. */
  const ctx = () => {
    const headers: Record<string, string> = {}
    const res = {
      headersSent: false,
      setHeader: (name: string, value: string) => void (headers[name] = value),
    }
    return { state: {}, headers, res } as unknown as AppContext & { headers: typeof headers }
  }
  // The configuration's defaults (no maxBuckets: the adapter's own default applies).
  const options = testConfig().rateLimits as RateLimitOptions
  const now = Date.now()

  it('drops the oldest address bucket when the 10,001st address fails: it is allowed again', () => {
    const limits = createRateLimits(options, () => now)
    const burst = options.authFailures.burst
    const fail = (address: string) => limits.failure(ctx(), address, 'unauthorized')
    for (const address of ['10.0.0.1', '10.0.0.2'])
      for (let i = 0; i < burst; i++) expect(fail(address)).to.equal('unauthorized')
    expect(fail('10.0.0.1')).to.deep.include({ _tag: 'RateLimited' })
    // 9,998 more: 10,000 buckets held, both exhausted ones among them.
    for (let i = 0; i < 9998; i++) fail(`addr-${i}`)
    expect(fail('10.0.0.1')).to.deep.include({ _tag: 'RateLimited' })
    fail('the-10001st')
    // Only the oldest went: the second is still held, and still refused.
    expect(fail('10.0.0.2')).to.deep.include({ _tag: 'RateLimited' })
    expect(fail('10.0.0.1')).to.equal('unauthorized')
  })

  it('drops the oldest key bucket when the 10,001st key is admitted: its budget starts afresh', () => {
    const limits = createRateLimits(options, () => now)
    for (let i = 0; i < options.perKey.burst; i++) limits.admitKey(ctx(), 'key-oldest')
    expect(limits.admitKey(ctx(), 'key-oldest')).to.deep.include({ _tag: 'RateLimited' })
    for (let i = 0; i < 9999; i++) limits.admitKey(ctx(), `key-${i}`)
    expect(limits.admitKey(ctx(), 'key-oldest')).to.deep.include({ _tag: 'RateLimited' })
    limits.admitKey(ctx(), 'the-10001st')
    const fresh = ctx()
    expect(limits.admitKey(fresh, 'key-oldest')).to.equal(undefined)
    expect(fresh.headers.RateLimit).to.equal(`"default";r=${options.perKey.burst - 1};t=1`)
  })
})

describe('HTTP: RATE_LIMIT=off', () => {
  it('sends no RateLimit headers and never 429', async () => {
    const api = await startTestApi({ env: { RATE_LIMIT: 'off', RATE_LIMIT_BURST: '1' } })
    try {
      const replies = await Promise.all(Array.from({ length: 5 }, () => api.get('/pets')))
      expect(replies.map((r) => r.status)).to.deep.equal([200, 200, 200, 200, 200])
      expect(replies[0]?.headers).to.not.have.property('ratelimit')
    } finally {
      await api.close()
    }
  })
})

describe('HTTP: the default rate limits', () => {
  it('refuse no single client: a burst of 1,000 reads with one key, all 200, the budget reported', async () => {
    let now = Date.now()
    // A connection each, all from one address at once: the connection limits are not the point.
    const api = await startTestApi({
      now: () => now,
      env: { MAX_CONNECTIONS_PER_ADDRESS: '1000', ANONYMOUS_CONNECTIONS_PERCENT: '100' },
    })
    try {
      const replies = await Promise.all(Array.from({ length: 1000 }, () => api.get('/pets')))
      expect(replies.filter((r) => r.status !== 200)).to.deep.equal([])
      expect(replies[0]?.headers['ratelimit-policy']).to.equal('"default";q=100000;w=2')
      // No time passed: each read took one token of the 100,000.
      const left = replies.map((r) => Number(/r=(\d+)/.exec(String(r.headers.ratelimit))?.[1]))
      expect(Math.min(...left)).to.equal(100_000 - 1000)
      now += 60_000
      expect((await api.get('/pets')).headers.ratelimit).to.equal('"default";r=99999;t=1')
    } finally {
      await api.close()
    }
  })
})
