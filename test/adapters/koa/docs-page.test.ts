import { expect } from 'chai'
import { auth, startTestApi, type TestApi } from '../../support/app.js'
import { expectError } from '../../support/expect-error.js'

describe('HTTP: the API reference page', () => {
  let api: TestApi
  before(async () => (api = await startTestApi()))
  after(() => api.close())

  it('serves the page without a key, with a strict Content-Security-Policy and no inline script', async () => {
    const page = await api.request({ path: '/v1/docs' })
    expect(page.status).to.equal(200)
    expect(page.headers['content-type']).to.equal('text/html; charset=utf-8')
    const csp = String(page.headers['content-security-policy'])
    expect(csp).to.include("default-src 'none'")
    expect(csp).to.include("script-src 'self'")
    expect(csp).to.not.include('unsafe-inline')
    expect(csp).to.not.include('unsafe-eval')
    const scripts = [...page.text.matchAll(/<script([^>]*)>([^<]*)<\/script>/g)]
    expect(scripts.map((s) => s[1])).to.deep.equal([
      ' src="docs/swagger-ui-bundle.js"',
      ' src="docs/init.js"',
    ])
    expect(scripts.every((s) => s[2] === '')).to.equal(true)
    expect(page.text).to.include('data-openapi="openapi.json"')
    expect(page.text).to.not.match(/https?:\/\//) // no CDN
  })

  it('serves its assets itself, without a key', async () => {
    for (const [name, type] of [
      ['swagger-ui-bundle.js', 'text/javascript; charset=utf-8'],
      ['swagger-ui.css', 'text/css; charset=utf-8'],
      ['init.js', 'text/javascript; charset=utf-8'],
    ]) {
      const reply = await api.request({ path: `/v1/docs/${name}` })
      expect(reply.status, name).to.equal(200)
      expect(reply.headers['content-type'], name).to.equal(type)
      expect(reply.headers['x-content-type-options']).to.equal('nosniff')
      expect(reply.text.length, name).to.be.greaterThan(100)
    }
  })

  it('answers other methods 405, and any other path under docs/ like every API path', async () => {
    const post = await api.request({ method: 'POST', path: '/v1/docs' })
    expectError(post, 405, 'method_not_allowed')
    expect(post.headers.allow).to.equal('GET, HEAD')
    for (const path of ['/v1/docs/', '/v1/docs/index.html', '/v1/docs/../openapi.json/x']) {
      expectError(await api.request({ path }), 401, 'unauthorized')
      expectError(await api.request({ path, headers: auth }), 404, 'not_found')
    }
    expectError(await api.request({ path: '/docs' }), 404, 'not_found')
  })

  it('lives under a configured base path, its URLs relative to the page', async () => {
    const other = await startTestApi({ env: { BASE_PATH: '/api/animals/v1' } })
    try {
      const pageUrl = 'http://localhost/api/animals/v1/docs'
      const page = await other.request({ path: new URL(pageUrl).pathname })
      expect(page.status).to.equal(200)
      const urls = [...page.text.matchAll(/(?:src|href|data-openapi)="([^"]+)"/g)]
        .map(([, url]) => url as string)
        .filter((url) => !url.startsWith('data:'))
      expect(urls).to.have.length(4)
      for (const url of urls) {
        const reply = await other.request({ path: new URL(url, pageUrl).pathname })
        expect(reply.status, url).to.equal(200)
      }
    } finally {
      await other.close()
    }
  })
})
