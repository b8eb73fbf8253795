import { expect } from 'chai'
import { createInMemoryIdempotencyStore } from '../../../adapters/in-memory/index.js'
import {
  createKoaApp,
  ROUTES,
  type KoaAppOptions,
  type Route,
} from '../../../adapters/koa/index.js'
import { errorResponses } from '../../../adapters/koa/app/openapi/responses.js'
import { param } from '../../../adapters/koa/app/routes/operation-text.js'
import { writePetJson } from '../../../adapters/koa/app/json/pet-json.js'
import { apiKeysOf } from '../../../apps/server/api-keys.js'
import { inMemoryStorage } from '../../../apps/server/storage.js'
import { errorCodesOf, getPet, silentLogger } from '../../../core/index.js'
import { auth, TEST_KEY, testApiOptions, testConfig } from '../../support/app.js'
import { serve, type Client } from '../../support/http.js'

const APP = 'https://app.example'

/** An operation the interface does not have: only this table entry is written for it. */
const deletePetRoute: Route = {
  operationId: 'deletePet',
  method: 'DELETE',
  path: '/pets/{petId}',
  scope: 'pets:write',
  success: 202,
  errors: ['BadRequest', 'NotFound'],
  document: () => ({
    summary: 'Remove an animal',
    description: 'Accepted for removal; the answer is the animal as it was.',
    parameters: [param('petId'), { name: 'If-Match', in: 'header', required: false }],
    responses: { '202': { description: 'Accepted.' } },
  }),
  handler:
    ({ store, respond }) =>
    (ctx) =>
      respond.runTask(ctx, getPet(store)(ctx.params.petId), (pet) =>
        respond.json(ctx, 202, writePetJson(pet)),
      ),
}

/** The service's app with its own settings, on its own store and clock. */
const appWith = async (options: KoaAppOptions, now = Date.now) => {
  const storage = inMemoryStorage()
  const app = createKoaApp(
    {
      store: storage.store,
      apiKeys: apiKeysOf(testConfig(), storage, [TEST_KEY], silentLogger),
      logger: silentLogger,
      now,
      checkReadiness: storage.checkReadiness,
      idempotencyStore: createInMemoryIdempotencyStore(),
    },
    options,
  )
  return serve(app.callback())
}

type Doc = {
  info: { description: string }
  paths: Record<
    string,
    Record<string, { operationId: string; security: unknown; responses: object }>
  >
  components: { headers: { Sunset: { description: string } } }
}

describe('HTTP: a route added to the table given to the app', () => {
  let api: Client
  before(async () => {
    const options = testApiOptions({ CORS_ORIGINS: APP })
    api = await appWith({ ...options, routes: { ...ROUTES, deletePet: deletePetRoute } })
  })
  after(() => api.close())

  it('is routed, behind the scope its table entry names', async () => {
    const created = await api.request({
      method: 'POST',
      path: '/v1/pets',
      headers: { ...auth, 'Content-Type': 'application/json' },
      body: '{"name":"Rex","categoryId":7}',
    })
    expect(created.status).to.equal(201)
    const id = (created.json as { id: bigint }).id
    const removed = await api.request({ method: 'DELETE', path: `/v1/pets/${id}`, headers: auth })
    expect(removed.status).to.equal(202)
    expect(removed.json).to.deep.equal(created.json)
    const missing = await api.request({ method: 'DELETE', path: '/v1/pets/999', headers: auth })
    expect(missing.status).to.equal(404)
    const allow = (await api.request({ method: 'PUT', path: `/v1/pets/${id}`, headers: auth }))
      .headers.allow
    expect(allow).to.equal('DELETE, GET, HEAD')
  })

  it('answers its CORS preflight with DELETE and the headers it reads', async () => {
    const reply = await api.request({
      method: 'OPTIONS',
      path: '/v1/pets/1',
      headers: { Origin: APP, 'Access-Control-Request-Method': 'DELETE' },
    })
    expect(reply.status).to.equal(204)
    expect(reply.headers['access-control-allow-methods']).to.equal('DELETE, GET, HEAD')
    expect(reply.headers['access-control-allow-headers']).to.equal(
      'Authorization, If-Match, X-Request-Id',
    )
  })

  it('appears in the OpenAPI document with its scope, and in the scope text', async () => {
    const doc = (await api.request({ path: '/v1/openapi.json' })).json as Doc
    const operation = doc.paths['/pets/{petId}']?.delete
    expect(operation?.operationId).to.equal('deletePet')
    expect(operation?.security).to.deep.equal([{ bearerAuth: ['pets:write'] }])
    expect(doc.info.description).to.include('`pets:write` (createPet, deletePet)')
    expect(Object.keys(doc.paths['/pets/{petId}'] ?? {})).to.deep.equal(['get', 'delete'])
    // The answers it names, beside those of every operation and its own 202.
    expect(Object.keys(operation?.responses ?? {})).to.deep.equal(
      ['202', '400', '404', ...Object.keys(errorResponses(errorCodesOf('every operation')))].sort(),
    )
  })
})

describe('the route table given to the app', () => {
  it("is refused at start when a key is not its route's operationId", async () => {
    const table = { ...ROUTES, removePet: deletePetRoute }
    let refused: unknown
    try {
      await appWith({ ...testApiOptions(), routes: table })
    } catch (error) {
      refused = error
    }
    expect(String(refused)).to.include('the route table files deletePet under removePet')
  })
})

describe('HTTP: the settings given to the app are the ones it answers by', () => {
  const sunsetAt = new Date('2027-03-01T00:00:00Z')
  let api: Client
  before(async () => {
    const options = testApiOptions()
    api = await appWith(
      {
        ...options,
        deprecation: { ...options.deprecation, sunsetAt },
        listLimits: { min: 2, max: 300, default: 3 },
      },
      () => sunsetAt.getTime(),
    )
  })
  after(() => api.close())

  it('one sunset: the 410, the Sunset header and the document', async () => {
    const gone = await api.request({ path: '/v1/pets/1', headers: auth })
    expect(gone.status).to.equal(410)
    expect(gone.headers.sunset).to.equal(sunsetAt.toUTCString())
    const doc = (await api.request({ path: '/v1/openapi.json' })).json as Doc
    expect(doc.components.headers.Sunset.description).to.include(sunsetAt.toUTCString())
    expect(JSON.stringify(doc.paths['/pets/{petId}'])).to.include('removed on 2027-03-01')
  })

  it('one set of list limits: the codec and the document', async () => {
    expect((await api.request({ path: '/v1/pets?limit=300', headers: auth })).status).to.equal(200)
    expect((await api.request({ path: '/v1/pets?limit=301', headers: auth })).status).to.equal(400)
    expect((await api.request({ path: '/v1/pets?limit=1', headers: auth })).status).to.equal(400)
    const doc = (await api.request({ path: '/v1/openapi.json' })).text
    expect(doc).to.include('"minimum":2,"maximum":300,"default":3')
  })
})
