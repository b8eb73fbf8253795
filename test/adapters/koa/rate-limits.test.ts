import { expect } from 'chai'
import { auth, OTHER_KEY, startTestApi, type TestApi } from '../../support/app.js'
import { expectError } from '../../support/expect-error.js'

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

  it('slows key guessing: past the failure burst an address gets 429 before any key is checked', async () => {
    for (let i = 0; i < 2; i++) {
      const reply = await call(wrong)
      expectError(reply, 401, 'unauthorized')
      expect(reply.headers['ratelimit-policy']).to.equal('"auth-failures";q=2;w=2')
      expect(reply.headers.ratelimit).to.equal(`"auth-failures";r=${1 - i};t=${2 - (1 - i)}`)
    }
    for (const headers of [wrong, {}, auth]) {
      const reply = await call(headers)
      expectError(reply, 429, 'rate_limited')
      expect(reply.headers['retry-after']).to.equal('1')
      expect(reply.headers.ratelimit).to.equal('"auth-failures";r=0;t=2')
    }
    now += 1000
    expect((await call(auth)).status).to.equal(200)
  })

  it('leaves successful requests out of the failure budget', async () => {
    for (let i = 0; i < 3; i++) expect((await call(auth)).status).to.equal(200)
    expectError(await call(wrong), 401, 'unauthorized')
    expectError(await call(wrong), 401, 'unauthorized')
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
    const api = await startTestApi({ now: () => now })
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
