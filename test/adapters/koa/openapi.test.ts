import { expect } from 'chai'
import { createInMemoryPetStore } from '../../../adapters/in-memory/index.js'
import { ERROR_CODES, openApiDocument } from '../../../adapters/koa/index.js'
import { createPetRouter } from '../../../adapters/koa/pet-routes.js'
import { INT64_MAX, ListPetsQueryParams, NewPet, Pet, PET_STATUSES } from '../../../core/index.js'
import { startTestApi } from '../../support/app.js'

type Operation = {
  operationId: string
  parameters?: Array<{ $ref: string }>
  responses: Record<string, unknown>
}
type Doc = ReturnType<typeof openApiDocument> & { paths: Record<string, Record<string, Operation>> }

const doc = openApiDocument({
  productionUrl: 'https://p.example/v1',
  stagingUrl: 'https://s.example/v1',
  maxBodyBytes: 8192,
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
    const router = createPetRouter(createInMemoryPetStore(), {
      basePath: '',
      maxBodyBytes: 1,
      retryAfterSeconds: 1,
      getPetIsGone: () => false,
    })
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

  it('documents exactly the query parameters the listing accepts', () => {
    const names = (doc.paths['/pets']?.get?.parameters ?? []).map((p) => p.$ref.split('/').at(-1))
    expect(names.sort()).to.deep.equal(codecKeys(ListPetsQueryParams).all)
  })

  it('has the fields of the codecs in NewPet and Pet, and the enums of the code', () => {
    expect(schemaKeys(doc.components.schemas.NewPet)).to.deep.equal(codecKeys(NewPet))
    expect(schemaKeys(doc.components.schemas.Pet)).to.deep.equal(codecKeys(Pet))
    expect(doc.components.schemas.PetStatus.enum).to.deep.equal(PET_STATUSES)
    expect(doc.components.schemas.Error.properties.code.enum).to.deep.equal(
      Object.keys(ERROR_CODES),
    )
    expect(doc.components.schemas.NewPet.additionalProperties).to.equal(false)
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
})
