import { expect } from 'chai'
import { INT64_MAX } from '../../../core/index.js'
import { startTestApi, type TestApi } from '../../support/app.js'
import { expectError } from '../../support/expect-error.js'
import type { Reply } from '../../support/http.js'
import { forEachBackend } from '../../support/backends.js'

const SUNSET = Date.parse('2030-12-05T00:00:00Z')

const expectDeprecated = (reply: Reply, deprecatedAtSeconds = 1767225600) => {
  expect(reply.headers.deprecation).to.equal(`@${deprecatedAtSeconds}`)
  expect(reply.headers.sunset).to.equal('Thu, 05 Dec 2030 00:00:00 GMT')
  expect(reply.headers.link).to.match(/^<\/v1\/pets>; rel="successor-version"/)
}

forEachBackend('HTTP: GET /pets/{petId} (deprecated)', (backend) => {
  let clock = Date.parse('2026-11-21T00:00:00Z')
  let api: TestApi
  beforeEach(async () => (api = await startTestApi({ backend, now: () => clock })))
  afterEach(() => api.close())

  it('returns the pet with the deprecation headers', async () => {
    await api.createPet({ name: 'Rex', categoryId: INT64_MAX, status: 'pending' })
    const reply = await api.get('/pets/1')
    expect(reply.status).to.equal(200)
    expect(reply.json).to.deep.equal({
      id: 1n,
      name: 'Rex',
      categoryId: INT64_MAX,
      status: 'pending',
    })
    expectDeprecated(reply)
  })

  it('answers 404 for a well-formed id that does not exist, deprecation headers included', async () => {
    for (const id of ['2', '9223372036854775807', '9007199254740993']) {
      const reply = await api.get(`/pets/${id}`)
      expectError(reply, 404, 'not_found', id)
      expectDeprecated(reply)
    }
  })

  it('answers 400 naming petId for a malformed id', async () => {
    for (const id of [
      '0',
      '-1',
      '1.5',
      '1e3',
      'abc',
      '9223372036854775808',
      '%20',
      '+1',
      '0x1',
      '%00',
      '%zz',
    ]) {
      const reply = await api.get(`/pets/${id}`)
      expectError(reply, 400, 'invalid_request', 'petId')
      expectDeprecated(reply)
    }
  })

  it('says it is deprecated even to an anonymous caller', async () => {
    const reply = await api.request({ path: '/v1/pets/1' })
    expectError(reply, 401)
    expectDeprecated(reply)
  })

  it('answers 410 Gone from the sunset instant on, and 200 just before', async () => {
    await api.createPet({ name: 'Rex', categoryId: 1n })
    clock = SUNSET - 1
    expect((await api.get('/pets/1')).status).to.equal(200)
    clock = SUNSET
    const gone = await api.get('/pets/1')
    expectError(gone, 410, 'gone', '/v1/pets?status=')
    expectDeprecated(gone)
    clock = SUNSET + 86_400_000
    expectError(await api.get('/pets/1'), 410, 'gone')
    expect((await api.get('/pets')).status).to.equal(200)
  })

  it('takes the deprecation instant from configuration', async () => {
    const other = await startTestApi({
      backend,
      env: { GET_PET_DEPRECATED_AT: '2027-03-01T12:00:00Z' },
    })
    try {
      expectDeprecated(await other.get('/pets/1'), Date.parse('2027-03-01T12:00:00Z') / 1000)
    } finally {
      await other.close()
    }
  })
})
