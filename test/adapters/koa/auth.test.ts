import { expect } from 'chai'
import { auth, OTHER_KEY, startTestApi, TEST_KEY, type TestApi } from '../../support/app.js'
import { expectError } from '../../support/expect-error.js'
import { forEachBackend } from '../../support/backends.js'

forEachBackend('HTTP: bearer API keys', (backend) => {
  let api: TestApi
  before(async () => (api = await startTestApi({ backend })))
  after(() => api.close())

  const call = (headers: Record<string, string>, path = '/v1/pets', method = 'GET') =>
    api.request({ method, path, headers })

  it('refuses a request without Authorization with 401 and a bare Bearer challenge', async () => {
    const reply = await call({})
    expectError(reply, 401, 'unauthorized')
    expect(reply.headers['www-authenticate']).to.equal('Bearer realm="animal-store"')
  })

  it('treats another scheme, or Bearer without a token, as no credential', async () => {
    for (const value of [`Basic ${Buffer.from('a:b').toString('base64')}`, 'Bearer', 'Bearer ']) {
      const reply = await call({ Authorization: value })
      expectError(reply, 401, 'unauthorized')
      expect(reply.headers['www-authenticate'], value).to.equal('Bearer realm="animal-store"')
      expect(reply.json, value).to.include({
        message: 'an API key is required: send Authorization: Bearer <API key>',
      })
    }
  })

  for (const [label, value] of [
    ['an unknown key', 'Bearer not-a-configured-key'],
    ['a key that is a prefix of a real one', `Bearer ${TEST_KEY.slice(0, -1)}`],
    ['a real key with a suffix', `Bearer ${TEST_KEY}x`],
    ['two tokens', `Bearer ${TEST_KEY} ${TEST_KEY}`],
    ['a token with forbidden characters', 'Bearer ab$cd'],
    ['a huge token', `Bearer ${'a'.repeat(8000)}`],
  ]) {
    it(`answers 401 invalid_token for ${label}`, async () => {
      const reply = await call({ Authorization: value as string })
      expectError(reply, 401, 'unauthorized')
      expect(reply.headers['www-authenticate']).to.equal(
        'Bearer realm="animal-store", error="invalid_token"',
      )
    })
  }

  it('accepts the scheme in any case and every configured key', async () => {
    for (const value of [
      `bearer ${TEST_KEY}`,
      `BEARER ${TEST_KEY}`,
      `Bearer ${OTHER_KEY}`,
      `Bearer   ${TEST_KEY}`,
    ]) {
      expect((await call({ Authorization: value })).status, value).to.equal(200)
    }
  })

  it('decides authentication before validation, 404, 405, 415 and 413', async () => {
    const anonymous = [
      { method: 'GET', path: '/v1/pets?limit=0' },
      { method: 'GET', path: '/v1/pets/abc' },
      { method: 'GET', path: '/v1/pets/1' },
      { method: 'GET', path: '/v1/no-such-thing' },
      { method: 'DELETE', path: '/v1/pets' },
      { method: 'TRACE', path: '/v1/pets/1' },
      { method: 'GET', path: '/v1/store/orders' },
      { method: 'POST', path: '/v1/pets', headers: { 'Content-Type': 'text/plain' }, body: 'x' },
      {
        method: 'POST',
        path: '/v1/pets',
        headers: { 'Content-Type': 'application/json' },
        body: 'x'.repeat(20000),
      },
    ]
    for (const req of anonymous) {
      expectError(await api.request(req), 401, 'unauthorized')
    }
  })

  it('protects every operation', async () => {
    for (const [method, path] of [
      ['GET', '/v1/pets'],
      ['POST', '/v1/pets'],
      ['GET', '/v1/pets/1'],
      ['GET', '/v1/store/orders'],
    ]) {
      expectError(await call({}, path, method), 401)
      expect((await call(auth, path, method)).status).to.not.equal(401)
    }
  })
})
