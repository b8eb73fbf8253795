import { expect } from 'chai'
import { auth, startTestApi, type TestApi } from '../../support/app.js'
import { openRaw } from '../../support/raw.js'

/**
 * docs/http.md: a request takes its Idempotency-Key once its body has arrived whole, not when its
 * headers do, so a slow body can lose to a later request with the same key.
 */
describe('HTTP: an Idempotency-Key is taken when the body has arrived', () => {
  let api: TestApi
  before(async () => (api = await startTestApi()))
  after(() => api.close())

  const body = '{"name":"Rex","categoryId":7}'
  const key = 'slow-body-key'

  it('gives the first whole body the create, and the slower one its replay', async () => {
    const slow = await openRaw(api.port)
    slow.socket.write(
      [
        `POST ${api.basePath}/pets HTTP/1.1`,
        'Host: localhost',
        `Authorization: ${auth.Authorization}`,
        'Content-Type: application/json',
        `Idempotency-Key: ${key}`,
        `Content-Length: ${Buffer.byteLength(body)}`,
        '',
        '',
      ].join('\r\n'),
    )
    // Its headers are in; the same key with a whole body comes and goes before its body does.
    const fast = await api.request({
      method: 'POST',
      path: `${api.basePath}/pets`,
      headers: { ...auth, 'Content-Type': 'application/json', 'Idempotency-Key': key },
      body,
    })
    expect(fast.status).to.equal(201)
    expect(fast.headers['idempotent-replayed']).to.equal(undefined)
    slow.socket.write(body)
    const answer = await slow.waitFor(/\r\n\r\n\{.*\}$/s)
    slow.socket.destroy()
    expect(answer).to.match(/^HTTP\/1\.1 201 /)
    expect(answer).to.match(/^idempotent-replayed: true\r$/im)
    expect(answer.slice(answer.indexOf('\r\n\r\n') + 4)).to.equal(fast.text)
  })
})
