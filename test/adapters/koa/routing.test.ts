import { expect } from 'chai'
import { auth, startTestApi, type TestApi } from '../../support/app.js'
import { expectError } from '../../support/expect-error.js'
import { forEachBackend } from '../../support/backends.js'
import { allowOf, PATH_TEMPLATES, pathOf } from '../../support/route-table.js'

forEachBackend('HTTP: paths and methods', (backend) => {
  let api: TestApi
  before(async () => (api = await startTestApi({ backend })))
  after(() => api.close())

  it('answers 404 Error for unknown paths under the base path', async () => {
    for (const path of [
      '/v1',
      '/v1/',
      '/v1/pet',
      '/v1/pets/1/owner',
      '/v1/PETS',
      '/v1/pets/',
      '/v1/store',
    ]) {
      expectError(await api.request({ path, headers: auth }), 404, 'not_found')
    }
  })

  it('does not serve paths outside the base path', async () => {
    for (const path of ['/', '/pets', '/v2/pets', '/v1pets', '/V1/pets', '/v10/pets']) {
      expectError(await api.request({ path, headers: auth }), 404, 'not_found')
    }
  })

  it('answers 405 with Allow, the methods of the route table, for a method a path lacks', async () => {
    let refused = 0
    for (const template of PATH_TEMPLATES) {
      const allow = allowOf(template)
      const path = pathOf(template)
      for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'TRACE', 'OPTIONS']) {
        if (allow.split(', ').includes(method)) continue
        const reply = await api.request({ method, path, headers: auth })
        expectError(reply, 405, 'method_not_allowed')
        expect(reply.headers.allow, `${method} ${path}`).to.equal(allow)
        refused++
      }
    }
    expect(refused).to.be.above(PATH_TEMPLATES.length)
  })

  it('answers HEAD like GET without a body', async () => {
    const reply = await api.request({ method: 'HEAD', path: '/v1/pets', headers: auth })
    expect(reply.status).to.equal(200)
    expect(reply.text).to.equal('')
  })

  it('answers GET /store/orders, which the seed leaves unspecified, with 501 after authentication', async () => {
    expectError(await api.get('/store/orders'), 501, 'not_implemented')
  })

  it('serves the API under a configured base path only', async () => {
    const other = await startTestApi({ backend, env: { BASE_PATH: '/api/animals/v1' } })
    try {
      expect(
        (await other.request({ path: '/api/animals/v1/pets', headers: auth })).status,
      ).to.equal(200)
      expectError(await other.request({ path: '/v1/pets', headers: auth }), 404)
      const created = await other.createPet({ name: 'Rex', categoryId: 1n })
      expect(created.headers.location).to.equal('/api/animals/v1/pets/1')
    } finally {
      await other.close()
    }
  })

  it('puts Cache-Control: no-store, nosniff and a request id on every answer', async () => {
    for (const req of [
      { path: '/v1/pets', headers: auth },
      { path: '/v1/pets' },
      { path: '/nowhere' },
      { path: '/healthz' },
      { method: 'DELETE', path: '/v1/pets', headers: auth },
    ]) {
      const reply = await api.request(req)
      expect(reply.headers['cache-control']).to.equal('no-store')
      expect(reply.headers['x-content-type-options']).to.equal('nosniff')
      expect(reply.headers['x-request-id']).to.match(/^[0-9a-f-]{36}$/)
    }
  })

  it('echoes a sane X-Request-Id and replaces an unsafe one', async () => {
    const sane = await api.request({
      path: '/v1/pets',
      headers: { ...auth, 'X-Request-Id': 'abc-123.x:y_z' },
    })
    expect(sane.headers['x-request-id']).to.equal('abc-123.x:y_z')
    const unsafe = await api.request({
      path: '/v1/pets',
      headers: { ...auth, 'X-Request-Id': 'a b"<c>' },
    })
    expect(unsafe.headers['x-request-id']).to.match(/^[0-9a-f-]{36}$/)
  })
})
