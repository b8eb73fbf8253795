import { expect } from 'chai'
import { auth, startTestApi, TEST_KEY, type TestApi } from '../../support/app.js'
import { sendRaw } from '../../support/raw.js'

/**
 * Edges the docs name: empty query pairs, a Content-Length past what HTTP reads and paths matched
 * as sent (http.md),
 * and the wire refusals that come before the key is read (api-keys.md).
 */
describe('HTTP: the documented edges of the query and of Content-Length', () => {
  let api: TestApi
  before(async () => (api = await startTestApi()))
  after(() => api.close())

  it('passes over an empty pair of the query string, which names no parameter', async () => {
    for (const query of ['?&', '?limit=5&&', '?&&status=sold&']) {
      const answer = await api.request({ path: `/v1/pets${query}`, headers: auth })
      expect(answer.status, query).to.equal(200)
    }
  })

  it('refuses a Content-Length past 2^64 − 1 as malformed (400), and one below it as too large (413)', async () => {
    const post = (length: string) =>
      sendRaw(
        api.port,
        [
          'POST /v1/pets HTTP/1.1',
          'Host: localhost',
          `Authorization: Bearer ${TEST_KEY}`,
          'Content-Type: application/json',
          `Content-Length: ${length}`,
          '',
          '',
        ].join('\r\n'),
      )
    const largest = await post('18446744073709551615')
    expect(largest.status, largest.head).to.equal(413)
    expect(JSON.parse(largest.body)).to.include({ code: 'payload_too_large' })
    for (const length of ['18446744073709551616', '99999999999999999999']) {
      const past = await post(length)
      expect(past.status, past.head).to.equal(400)
      expect(JSON.parse(past.body)).to.include({ code: 'bad_request', status: 400 })
    }
  })

  it('sends no rate-limit headers with a refusal made before the key is read, as it does after', async () => {
    const request = (expectHeader: string) =>
      sendRaw(
        api.port,
        `GET /v1/pets HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${TEST_KEY}\r\n${expectHeader}Connection: close\r\n\r\n`,
      )
    const refused = await request('Expect: foo\r\n')
    expect(refused.status, refused.head).to.equal(417)
    expect(refused.head).to.not.match(/^ratelimit/im)
    const keyed = await request('')
    expect(keyed.status, keyed.head).to.equal(200)
    expect(keyed.head).to.match(/^ratelimit-policy: /im)
  })

  it('matches the fixed segments of a path as sent, and decodes the petId segment', async () => {
    const created = await api.createPet({ name: 'Rex', categoryId: 1 })
    expect(created.status).to.equal(201)
    const id = String((created.json as { id: bigint }).id)
    const encoded = [...id].map((digit) => `%${digit.charCodeAt(0).toString(16)}`).join('')
    const found = await api.request({ path: `/v1/pets/${encoded}`, headers: auth })
    expect(found.status, encoded).to.equal(200)
    expect(found.json).to.include({ name: 'Rex' })
    const unknown = await api.request({ path: '/v1/%70ets', headers: auth })
    expect(unknown.status).to.equal(404)
    expect(unknown.json).to.include({ code: 'not_found' })
  })
})
