import { expect } from 'chai'
import { EXPOSED_HEADERS, openApiDocument } from '../../../adapters/koa/index.js'
import { auth, startTestApi, testApiOptions, type TestApi } from '../../support/app.js'
import { expectError } from '../../support/expect-error.js'
import type { Reply } from '../../support/http.js'
import { allowOf, PATH_TEMPLATES, pathOf } from '../../support/route-table.js'

const APP = 'https://app.example'
const preflight = (
  api: TestApi,
  path: string,
  origin: string,
  method = 'GET',
  requestHeaders = 'authorization',
) =>
  api.request({
    method: 'OPTIONS',
    path,
    headers: {
      Origin: origin,
      'Access-Control-Request-Method': method,
      'Access-Control-Request-Headers': requestHeaders,
    },
  })
/** The paths served without a key, and the request headers each reads. */
const PUBLIC_PATHS = [
  ['/v1/openapi.json', 'X-Request-Id'],
  ['/v1/docs', 'If-None-Match, X-Request-Id'],
  ['/v1/docs/swagger-ui-bundle.js', 'If-None-Match, X-Request-Id'],
  ['/v1/docs/swagger-ui.css', 'If-None-Match, X-Request-Id'],
  ['/v1/docs/init.js', 'If-None-Match, X-Request-Id'],
  ['/healthz', 'X-Request-Id'],
  ['/readyz', 'X-Request-Id'],
] as const
const corsHeaders = (reply: Reply) =>
  Object.keys(reply.headers).filter((h) => h.startsWith('access-control-'))

describe('HTTP: CORS with an allow-list', () => {
  let api: TestApi
  before(
    async () =>
      (api = await startTestApi({
        env: { CORS_ORIGINS: `${APP},http://localhost:3000,http://[::1]:3000` },
      })),
  )
  after(() => api.close())

  it("answers a preflight before authentication, with exactly the route's methods and headers", async () => {
    const pets = await preflight(api, '/v1/pets', APP, 'POST')
    expect(pets.status).to.equal(204)
    expect(pets.text).to.equal('')
    expect(pets.headers['access-control-allow-origin']).to.equal(APP)
    expect(pets.headers.vary).to.match(/\bOrigin\b/)
    expect(pets.headers['access-control-allow-methods']).to.equal(allowOf('/pets'))
    expect(pets.headers['access-control-allow-headers']).to.equal(
      'Authorization, Content-Type, Idempotency-Key, X-Request-Id',
    )
    expect(pets.headers['access-control-allow-credentials']).to.equal(undefined)
    expect(pets.headers['access-control-max-age']).to.equal('600')

    const pet = await preflight(api, '/v1/pets/1', 'http://localhost:3000')
    expect(pet.status).to.equal(204)
    expect(pet.headers['access-control-allow-origin']).to.equal('http://localhost:3000')
    expect(pet.headers['access-control-allow-methods']).to.equal(allowOf('/pets/{petId}'))
    expect(pet.headers['access-control-allow-headers']).to.equal('Authorization, X-Request-Id')
    expect(pet.headers['access-control-max-age']).to.equal('600')

    const ipv6 = await preflight(api, '/v1/pets', 'http://[::1]:3000')
    expect(ipv6.status).to.equal(204)
    expect(ipv6.headers['access-control-allow-origin']).to.equal('http://[::1]:3000')
  })

  it('takes the methods from the router: the same as the 405 Allow of each path', async () => {
    for (const path of PATH_TEMPLATES.map((template) => pathOf(template))) {
      const allow = (await api.request({ method: 'TRACE', path, headers: auth })).headers.allow
      expect(allow, path).to.be.a('string')
      const reply = await preflight(api, path, APP, 'TRACE')
      expect(reply.headers['access-control-allow-methods'], path).to.equal(allow)
    }
  })

  it('gives a preflight from an origin not on the list no CORS headers: it is an ordinary OPTIONS', async () => {
    for (const origin of [
      'https://evil.example',
      'https://app.example:444',
      'null',
      'HTTPS://APP.EXAMPLE',
    ]) {
      const reply = await preflight(api, '/v1/pets', origin, 'POST')
      expectError(reply, 401, 'unauthorized')
      expect(corsHeaders(reply), origin).to.deep.equal([])
      expect(reply.headers.vary).to.match(/\bOrigin\b/)
    }
    const document = await preflight(api, '/v1/openapi.json', 'https://evil.example')
    expectError(document, 405, 'method_not_allowed')
    expect(corsHeaders(document)).to.deep.equal([])
  })

  it("answers a preflight to a public path like the API's: 204 with the methods it serves", async () => {
    for (const [path, headers] of PUBLIC_PATHS) {
      const allow = (await api.request({ method: 'TRACE', path })).headers.allow
      expect(allow, path).to.equal('GET, HEAD')
      // A method the path does not serve gets the same answer: the browser refuses it.
      for (const method of ['GET', 'POST']) {
        const reply = await preflight(api, path, APP, method, 'x-request-id')
        expect(reply.status, path).to.equal(204)
        expect(reply.text, path).to.equal('')
        expect(reply.headers['access-control-allow-origin'], path).to.equal(APP)
        expect(reply.headers.vary, path).to.match(/\bOrigin\b/)
        expect(reply.headers['access-control-allow-methods'], path).to.equal(allow)
        expect(reply.headers['access-control-allow-headers'], path).to.equal(headers)
        expect(reply.headers['access-control-max-age'], path).to.equal('600')
      }
      const read = await api.request({ path, headers: { Origin: APP, 'X-Request-Id': 'r-1' } })
      expect(read.status, path).to.equal(200)
      expect(read.headers['access-control-allow-origin'], path).to.equal(APP)
    }
  })

  it('does not answer a preflight for a path the app does not serve, but lets the script read why', async () => {
    for (const [path, status] of [
      ['/v1/nowhere', 401],
      ['/v1/pets/1/2', 401],
      ['/v1/docs/nothing.js', 401],
      ['/elsewhere', 404],
    ] as const) {
      const reply = await preflight(api, path, APP)
      expect(reply.status, path).to.equal(status)
      expect(corsHeaders(reply).sort(), path).to.deep.equal([
        'access-control-allow-origin',
        'access-control-expose-headers',
      ])
      expect(reply.headers['access-control-allow-origin'], path).to.equal(APP)
    }
  })

  it('keeps 405 with Allow for an OPTIONS that is not a preflight', async () => {
    const reply = await api.request({
      method: 'OPTIONS',
      path: '/v1/pets',
      headers: { ...auth, Origin: APP },
    })
    expectError(reply, 405, 'method_not_allowed')
    expect(reply.headers.allow).to.equal(allowOf('/pets'))
  })

  it('lets a script of an allowed origin read every answer and its headers: errors and probes included', async () => {
    const created = await api.request({
      method: 'POST',
      path: '/v1/pets',
      headers: { ...auth, Origin: APP, 'Content-Type': 'application/json' },
      body: '{"name":"Rex","categoryId":1}',
    })
    const anonymous = await api.request({ path: '/v1/pets', headers: { Origin: APP } })
    expectError(anonymous, 401, 'unauthorized')
    // The probes and the answers outside the base path too.
    const probes = await Promise.all(
      ['/healthz', '/readyz', '/elsewhere'].map((path) =>
        api.request({ path, headers: { Origin: APP } }),
      ),
    )
    expect(probes.map((reply) => reply.status)).to.deep.equal([200, 200, 404])
    const refused = await api.request({
      method: 'POST',
      path: '/v1/openapi.json',
      headers: { Origin: APP },
    })
    expectError(refused, 405, 'method_not_allowed')
    for (const reply of [created, anonymous, ...probes, refused]) {
      expect(reply.headers['access-control-allow-origin']).to.equal(APP)
      expect(reply.headers.vary).to.match(/\bOrigin\b/)
      const exposed = String(reply.headers['access-control-expose-headers']).split(', ')
      expect(exposed).to.include.members([
        'Link',
        'Location',
        'Deprecation',
        'Sunset',
        'X-Request-Id',
        'Retry-After',
        'RateLimit',
        'RateLimit-Policy',
        'Idempotent-Replayed',
      ])
    }
    expect(created.status).to.equal(201)
  })

  it('gives an answer to another origin no CORS headers', async () => {
    const reply = await api.request({
      path: '/v1/pets',
      headers: { ...auth, Origin: 'https://evil.example' },
    })
    expect(reply.status).to.equal(200)
    expect(corsHeaders(reply)).to.deep.equal([])
  })
})

describe('CORS in the OpenAPI document', () => {
  it('names the exposed headers the code sends', () => {
    const doc = openApiDocument({ ...testApiOptions(), servers: [] })
    expect(doc.info.description).to.include(`Access-Control-Expose-Headers: ${EXPOSED_HEADERS}`)
  })
})

describe('HTTP: CORS off (the default)', () => {
  let api: TestApi
  before(async () => (api = await startTestApi()))
  after(() => api.close())

  it('answers a preflight like any OPTIONS: 401 without a key, 405 with Allow with one', async () => {
    const anonymous = await preflight(api, '/v1/pets', APP, 'POST')
    expectError(anonymous, 401, 'unauthorized')
    expect(corsHeaders(anonymous)).to.deep.equal([])
    const keyed = await api.request({
      method: 'OPTIONS',
      path: '/v1/pets',
      headers: { ...auth, Origin: APP, 'Access-Control-Request-Method': 'POST' },
    })
    expectError(keyed, 405, 'method_not_allowed')
    expect(keyed.headers.allow).to.equal(allowOf('/pets'))
    expect(corsHeaders(keyed)).to.deep.equal([])
    expect(keyed.headers.vary).to.equal(undefined)
    const document = await preflight(api, '/v1/openapi.json', APP)
    expectError(document, 405, 'method_not_allowed')
    expect(corsHeaders(document)).to.deep.equal([])
  })
})
