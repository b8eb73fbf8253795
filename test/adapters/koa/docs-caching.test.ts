import { get, type IncomingHttpHeaders } from 'node:http'
import { gunzipSync } from 'node:zlib'
import { expect } from 'chai'
import { startTestApi, type TestApi } from '../../support/app.js'
import { expectError } from '../../support/expect-error.js'

type Raw = { status: number; headers: IncomingHttpHeaders; body: Buffer }

/** The bytes as sent (no decoding), to see the coding itself. */
const raw = (port: number, path: string, headers: Record<string, string> = {}): Promise<Raw> =>
  new Promise((resolve, reject) =>
    get({ host: '127.0.0.1', port, path, headers }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      )
    }).once('error', reject),
  )

describe('HTTP: the reference page and its assets are compressed, cacheable and budgeted', () => {
  let api: TestApi
  const bundle = '/v1/docs/swagger-ui-bundle.js'
  before(async () => (api = await startTestApi({ env: { DOCS_BURST: '6', DOCS_RPM: '1' } })))
  after(() => api.close())

  it('sends gzip to a client that asks for it, the same bytes once unzipped, with Vary', async () => {
    const plain = await raw(api.port, bundle)
    const zipped = await raw(api.port, bundle, { 'Accept-Encoding': 'gzip, deflate, br' })
    expect(plain.headers['content-encoding']).to.equal(undefined)
    expect(zipped.headers['content-encoding']).to.equal('gzip')
    for (const reply of [plain, zipped]) {
      expect(reply.status).to.equal(200)
      expect(reply.headers.vary).to.equal('Accept-Encoding')
      expect(reply.headers['cache-control']).to.equal('public, max-age=3600')
      expect(Number(reply.headers['content-length'])).to.equal(reply.body.length)
    }
    expect(zipped.body.length).to.be.lessThan(plain.body.length / 2)
    expect(gunzipSync(zipped.body).equals(plain.body)).to.equal(true)
    // One ETag per form: a cache never takes one for the other.
    expect(zipped.headers.etag).to.match(/^"[A-Za-z0-9_-]+"$/)
    expect(zipped.headers.etag).to.not.equal(plain.headers.etag)
    const refused = await raw(api.port, bundle, { 'Accept-Encoding': 'gzip;q=0, identity' })
    expect(refused.headers['content-encoding']).to.equal(undefined)
  })

  it('answers 304 without a body to a client that has the form, and does not count it', async () => {
    const first = await raw(api.port, '/v1/docs', { 'Accept-Encoding': 'gzip' })
    expect(first.headers['cache-control']).to.equal('no-cache')
    const etag = String(first.headers.etag)
    for (let i = 0; i < 10; i++) {
      const again = await raw(api.port, '/v1/docs', {
        'Accept-Encoding': 'gzip',
        'If-None-Match': `"other", W/${etag}`,
      })
      expect(again.status).to.equal(304)
      expect(again.body.length).to.equal(0)
      expect(again.headers.etag).to.equal(etag)
      expect(again.headers.vary).to.equal('Accept-Encoding')
    }
  })

  it('refuses full answers past the per-address budget with 429, and still answers 304s', async () => {
    const etag = String((await raw(api.port, '/v1/docs/init.js')).headers.etag)
    let status = 200
    for (let i = 0; i < 10 && status === 200; i++) status = (await raw(api.port, bundle)).status
    expect(status).to.equal(429)
    expectError(await api.request({ path: '/v1/docs/swagger-ui.css' }), 429, 'rate_limited')
    const limited = await raw(api.port, '/v1/docs/init.js')
    expect(limited.headers.ratelimit).to.match(/^"docs";r=0;t=\d+$/)
    expect(limited.headers.etag).to.equal(undefined)
    const revalidated = await raw(api.port, '/v1/docs/init.js', { 'If-None-Match': etag })
    expect(revalidated.status).to.equal(304)
    // The API itself is not affected.
    expect((await api.get('/pets')).status).to.equal(200)
  })
})
