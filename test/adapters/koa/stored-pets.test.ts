import { expect } from 'chai'
import { reportUnreadablePet } from '../../../apps/server/storage.js'
import { PET_NAME_MAX_LENGTH, silentLogger, type Logger, type Pet } from '../../../core/index.js'
import { startTestApi, type TestApi } from '../../support/app.js'
import { forEachBackend, storageFor } from '../../support/backends.js'
import { expectError } from '../../support/expect-error.js'

const longName = 'L'.repeat(PET_NAME_MAX_LENGTH + 50)
/** What other versions stored: a field of a later one, a name of a looser rule, a broken record. */
const RECORDS = [
  { id: 1n, name: 'Later', categoryId: 7n, status: 'available', birthDate: '2026-01-02' },
  { id: 2n, name: longName, categoryId: 7n, status: 'available' },
  { id: 3n, name: 'Broken', categoryId: 'seven' },
  { id: 4n, name: 'Four', categoryId: 7n },
]

forEachBackend('HTTP: pets that other versions stored', (backend) => {
  let api: TestApi
  const warnings: Array<Record<string, unknown>> = []
  const logger: Logger = {
    ...silentLogger,
    warn: (fields: object, message: string) => warnings.push({ ...fields, message }),
  } as Logger
  beforeEach(async () => {
    warnings.length = 0
    const storage = await storageFor(backend, {
      records: RECORDS,
      onUnreadablePet: reportUnreadablePet(logger),
    })
    api = await startTestApi({ storage })
  })
  afterEach(() => api.close())

  it('lists them with 200: an unknown field left out, a longer name as stored, a broken one alone skipped', async () => {
    const reply = await api.get('/pets?limit=3')
    expect(reply.status).to.equal(200)
    const pets = reply.json as Pet[]
    expect(pets.map((pet) => pet.id)).to.deep.equal([1n, 2n, 4n])
    expect(pets[0]).to.deep.equal({ id: 1n, name: 'Later', categoryId: 7n, status: 'available' })
    expect(pets[1]?.name).to.equal(longName)
    expect(reply.headers.link).to.equal(undefined)
    const first = await api.get('/pets?limit=2')
    expect(first.headers.link).to.equal('</v1/pets?limit=2&after=2>; rel="next"')
    expect(
      ((await api.get('/pets?limit=2&after=2')).json as Pet[]).map((pet) => pet.id),
    ).to.deep.equal([4n])
    expect(warnings.some((line) => line['petId'] === '3')).to.equal(true)
  })

  it('gets each readable one with 200, and the broken one with a 500 naming it, never a 503', async () => {
    for (const id of [1, 2, 4]) expect((await api.get(`/pets/${id}`)).status).to.equal(200)
    expect((await api.get('/pets/2')).json).to.deep.include({ name: longName })
    const broken = await api.get('/pets/3')
    expectError(broken, 500, 'internal')
    expect((broken.json as { message: string }).message).to.match(/pet 3 is stored in a form/)
    expect(warnings.at(-1)).to.deep.include({ petId: '3' })
    expect(String(warnings.at(-1)?.['reason'])).to.match(/categoryId/)
  })

  it('creates new pets above them, and a create is still held to the input rules', async () => {
    const created = await api.createPet({ name: 'New', categoryId: 1n })
    expect(created.status).to.equal(201)
    expect((created.json as Pet).id > 4n).to.equal(true)
    expectError(await api.createPet({ name: longName, categoryId: 1n }), 400, 'invalid_request')
  })
})
