import { expect } from 'chai'
import {
  createInMemoryIdempotencyStore,
  createInMemoryPetStore,
} from '../../../adapters/in-memory/index.js'
import { ERROR_CODES, openApiDocument } from '../../../adapters/koa/index.js'
import { createRouter, ROUTES, routesOf } from '../../../adapters/koa/app/routes/index.js'
import { createResponder } from '../../../adapters/koa/response/answer/index.js'
import { createPetJsonCache } from '../../../adapters/koa/app/json/pet-json.js'
import { silentLogger } from '../../../core/index.js'
import {
  INT64_MAX,
  LIST_LIMITS,
  listPetsQueryCodec,
  NewPet,
  Pet,
  PET_STATUSES,
} from '../../../core/index.js'
import { scopeByMethod } from '../../../adapters/koa/app/routes/index.js'
import { auth, startTestApi, testApiOptions } from '../../support/app.js'
import { tempKeyFile } from '../../support/minted-keys.js'

type Operation = {
  operationId: string
  parameters?: Array<{ $ref: string }>
  security?: Array<Record<string, string[]>>
  responses: Record<string, { description: string; headers?: Record<string, unknown> }>
}
type Doc = ReturnType<typeof openApiDocument> & { paths: Record<string, Record<string, Operation>> }

const doc = openApiDocument({
  ...testApiOptions(),
  servers: [
    { url: 'https://p.example/v1', description: 'Production' },
    { url: 'https://s.example/v1', description: 'Staging' },
  ],
}) as Doc
const schemaKeys = (schema: { properties: object; required: string[] }) => ({
  all: Object.keys(schema.properties).sort(),
  required: [...schema.required].sort(),
})
const codecKeys = (codec: {
  keys: { required: ReadonlyArray<string>; optional: ReadonlyArray<string> }
}) => ({
  all: [...codec.keys.required, ...codec.keys.optional].sort(),
  required: [...codec.keys.required].sort(),
})

/** The document and the code must not drift apart: each side is read and compared. */
describe('OpenAPI document', () => {
  it('has exactly the routes and methods of the router (plus the document itself)', () => {
    const router = createRouter(
      {
        ...testApiOptions(),
        store: createInMemoryPetStore(),
        idempotencyStore: createInMemoryIdempotencyStore(),
        basePath: '',
        respond: createResponder({ retryAfterSeconds: 1, logger: silentLogger }),
        now: Date.now,
        publicBase: () => '',
        petJson: createPetJsonCache(),
      },
      routesOf(ROUTES),
    )
    const routed = router.stack.flatMap((layer) =>
      layer.methods.filter((m) => m !== 'HEAD').map((m) => `${m} ${layer.path}`),
    )
    const documented = Object.entries(doc.paths)
      .filter(([path]) => path !== '/openapi.json')
      .flatMap(([path, ops]) =>
        Object.keys(ops).map((m) => `${m.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`),
      )
    expect(documented.sort()).to.deep.equal(routed.sort())
  })

  it('names the operations of the seed and marks getPet deprecated', () => {
    expect(doc.paths['/pets']?.get?.operationId).to.equal('listPets')
    expect(doc.paths['/pets']?.post?.operationId).to.equal('createPet')
    expect(doc.paths['/pets/{petId}']?.get).to.deep.include({
      operationId: 'getPet',
      deprecated: true,
    })
    expect(doc.servers.map((s) => s.url)).to.deep.equal([
      'https://p.example/v1',
      'https://s.example/v1',
    ])
    expect(doc.security).to.deep.equal([{ bearerAuth: [] }])
  })

  it('says where every error code comes from: an operation that answers it, or the HTTP exchange', () => {
    const byOperations = new Set(
      operations.flatMap(({ op }) =>
        Object.entries(op.responses).flatMap(([status, { description }]) =>
          [...description.matchAll(/`(\w+)`/g)].map(([, code]) => `${code} ${status}`),
        ),
      ),
    )
    const exchange = doc.info.description
      .split('\n\n')
      .find((paragraph) => paragraph.startsWith('Some answers concern the HTTP exchange'))
    const byExchange = new Set(
      [...(exchange ?? '').matchAll(/(\d{3}) `(\w+)`/g)].map(
        ([, status, code]) => `${code} ${status}`,
      ),
    )
    const byRouting = new Set(['method_not_allowed 405', 'not_found 404'])
    for (const [code, status] of Object.entries(ERROR_CODES)) {
      const named = `${code} ${status}`
      expect(
        byOperations.has(named) || byExchange.has(named) || byRouting.has(named),
        named,
      ).to.equal(true)
    }
    expect([...byExchange].sort()).to.deep.equal([
      'bad_request 400',
      'expectation_failed 417',
      'headers_too_large 431',
      'not_implemented 501',
      'request_timeout 408',
      'unavailable 503',
    ])
  })

  it('documents exactly the query parameters the listing accepts', () => {
    const names = (doc.paths['/pets']?.get?.parameters ?? []).map((p) => p.$ref.split('/').at(-1))
    expect(names.sort()).to.deep.equal(codecKeys(listPetsQueryCodec(LIST_LIMITS)).all)
  })

  it('has the fields of the codecs in NewPet and Pet, and the enums of the code', () => {
    expect(schemaKeys(doc.components.schemas.NewPet)).to.deep.equal(codecKeys(NewPet))
    expect(schemaKeys(doc.components.schemas.Pet)).to.deep.equal(codecKeys(Pet))
    expect(doc.components.schemas.PetStatus.enum).to.deep.equal(PET_STATUSES)
    expect(doc.components.schemas.Error.properties.code.enum).to.deep.equal(
      Object.keys(ERROR_CODES),
    )
    // A request's body and the Error are closed; a served pet may carry a later version's fields.
    expect(doc.components.schemas.NewPet.additionalProperties).to.equal(false)
    expect(doc.components.schemas.Error.additionalProperties).to.equal(false)
    expect(doc.components.schemas.Pet).to.not.have.property('additionalProperties')
    expect(doc.components.schemas.PetInt64String).to.not.have.property('additionalProperties')
  })

  it('is served without auth, with the int64 bound written exactly', async () => {
    const api = await startTestApi()
    try {
      const reply = await api.request({ path: '/v1/openapi.json' })
      expect(reply.status).to.equal(200)
      expect(reply.text).to.include(`"maximum":${INT64_MAX}`)
      // The client's reply parser reads integers as bigints: the bound comes back exact.
      const served = reply.json as {
        openapi: string
        components: { schemas: { Pet: { properties: { id: { maximum: bigint } } } } }
      }
      expect(served.openapi).to.equal('3.1.0')
      expect(served.components.schemas.Pet.properties.id.maximum).to.equal(INT64_MAX)
    } finally {
      await api.close()
    }
  })

  const documentedPaths = doc.paths as Record<string, Record<string, Operation>>
  const operations = Object.entries(documentedPaths)
    .filter(([path]) => path !== '/openapi.json')
    .flatMap(([path, ops]) => Object.entries(ops).map(([method, op]) => ({ path, method, op })))

  it('states the scope each operation needs, the one guardApi checks', () => {
    for (const { method, op } of operations)
      expect(op.security, op.operationId).to.deep.equal([
        { bearerAuth: [scopeByMethod(routesOf(ROUTES))[method.toUpperCase()]] },
      ])
  })

  it('documents 401, 403 and 429 with their headers on every authenticated operation', () => {
    for (const { op } of operations) {
      expect(op.responses['401']?.headers, op.operationId).to.include.keys('WWW-Authenticate')
      expect(op.responses['403']?.headers, op.operationId).to.include.keys('WWW-Authenticate')
      expect(op.responses['429']?.headers, op.operationId).to.include.keys(
        'Retry-After',
        'RateLimit-Policy',
        'RateLimit',
      )
      for (const [status, response] of Object.entries(op.responses))
        expect(response.headers, `${op.operationId} ${status}`).to.include.keys('RateLimit')
    }
  })

  it('documents the codes and headers of the real 401 invalid_token, 403 and 429 answers', async () => {
    const file = tempKeyFile()
    const frozen = Date.now()
    const readOnly = await file.mint(['pets:read'])
    const revoked = await file.mint(['pets:read'])
    await file.registry.revokeKey(revoked.stored.id, 0)()
    const api = await startTestApi({
      env: {
        API_KEYS_FILE: file.path,
        RATE_LIMIT: 'on',
        RATE_LIMIT_RPS: '1',
        RATE_LIMIT_BURST: '1',
      },
      now: () => frozen, // no refill between the requests, however slow the machine
    })
    try {
      const bearer = (key: string) => ({ Authorization: `Bearer ${key}` })
      const replies = {
        '403': await api.request({
          method: 'POST',
          path: '/v1/pets',
          headers: { ...bearer(readOnly.key), 'Content-Type': 'application/json' },
          body: '{}',
        }),
        '401': await api.request({ path: '/v1/pets', headers: bearer(revoked.key) }),
        '429':
          (await api.request({ path: '/v1/pets', headers: auth }),
          await api.request({ path: '/v1/pets', headers: auth })),
      }
      const op = { '403': 'post', '401': 'get', '429': 'get' } as const
      for (const [status, reply] of Object.entries(replies)) {
        expect(reply.status).to.equal(Number(status))
        const documented =
          documentedPaths['/pets']?.[op[status as keyof typeof op]]?.responses[status]
        expect(documented?.description).to.include(`\`${(reply.json as { code: string }).code}\``)
        for (const name of Object.keys(documented?.headers ?? {}))
          expect(reply.headers, `${status} ${name}`).to.have.property(name.toLowerCase())
      }
    } finally {
      await api.close()
      file.remove()
    }
  })
})
