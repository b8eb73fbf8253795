import { expect } from 'chai'
import * as E from 'fp-ts/lib/Either.js'
import {
  isClientError,
  type ClientError,
  type DeprecationNotice,
} from '../../../adapters/http-client/index.js'
import { GET_PET_DEPRECATION, INT64_MAX, type Pet } from '../../../core/index.js'
import { startTestApi, type TestApi } from '../../support/app.js'
import { forEachBackend } from '../../support/backends.js'
import { countingClient, rejectionOf } from './support.js'

const codeOf = async (promise: Promise<unknown>) => {
  const error = await rejectionOf(promise)
  expect(isClientError(error), String(error)).to.equal(true)
  return error as ClientError
}

forEachBackend('the client against the service', (backend) => {
  let api: TestApi
  beforeEach(async () => {
    api = await startTestApi({ backend })
  })
  afterEach(() => api.close())

  it('creates a pet with ids above 2^53 exact, and gets it back (deprecated, told once)', async () => {
    const notices: DeprecationNotice[] = []
    const { client } = countingClient(api.port, { onDeprecation: (n) => notices.push(n) })
    const created = await client.createPet({ name: 'Rex', categoryId: INT64_MAX, status: 'sold' })
    expect(created).to.deep.include({ name: 'Rex', categoryId: INT64_MAX, status: 'sold' })
    expect(typeof created.id).to.equal('bigint')
    expect(await client.getPet(created.id)).to.deep.equal(created)
    expect(await client.getPet(created.id)).to.deep.equal(created)
    expect(notices).to.have.length(1)
    expect(notices[0]?.sunset).to.equal(GET_PET_DEPRECATION.sunsetAt.toUTCString())
    expect(notices[0]?.deprecation).to.match(/^@\d+$/)
  })

  it('lists one page with the request for the next, and iterates over every page', async () => {
    const { client, sent } = countingClient(api.port)
    const made: Pet[] = []
    for (let i = 0; i < 7; i++)
      made.push(await client.createPet({ name: `Pet ${i}`, categoryId: 2n ** 53n + BigInt(i) }))
    const first = await client.listPets({ limit: 3 })
    expect(first.pets).to.deep.equal(made.slice(0, 3))
    expect(first.next).to.deep.equal({ limit: 3, after: made[2]?.id })
    sent.length = 0
    const pages: Pet[][] = []
    for await (const page of client.pages({ limit: 3 })) pages.push([...page])
    expect(pages.map((p) => p.length)).to.deep.equal([3, 3, 1])
    expect(pages.flat()).to.deep.equal(made)
    expect(sent).to.have.length(3)
    const last = await client.listPets({ limit: 3, after: made[5]?.id as bigint })
    expect(last.next).to.equal(undefined)
  })

  it('gives the same calls as TaskEither, never throwing', async () => {
    const { client } = countingClient(api.port)
    const created = await client.taskEither.createPet({ name: 'Tess', categoryId: 1n })()
    expect(E.isRight(created)).to.equal(true)
    const id = (created as E.Right<Pet>).right.id
    expect(await client.taskEither.getPet(id)()).to.deep.equal(created)
    const page = await client.taskEither.listPets({ status: 'available' })()
    expect(page).to.deep.equal(E.right({ pets: [], next: undefined }))
    const missing = await client.taskEither.getPet(id + 1n)()
    expect(E.isLeft(missing) && missing.left.code).to.equal('not_found')
  })

  it('refuses without retrying: 400, 401, 404 and 422, each with its code, status and message', async () => {
    const { client, sent } = countingClient(api.port)
    const invalid = await codeOf(client.createPet({ name: ' ', categoryId: 1n }))
    expect(invalid).to.deep.include({ code: 'invalid_request', status: 400 })
    expect(invalid.message).to.match(/^name must/)
    expect(sent).to.have.length(1)

    const stranger = countingClient(api.port, { apiKey: 'not-a-key-0123456789' })
    expect(await codeOf(stranger.client.listPets())).to.deep.include({
      code: 'unauthorized',
      status: 401,
    })
    expect(stranger.sent).to.have.length(1)

    sent.length = 0
    await client.createPet({ name: 'Rex', categoryId: 1n }, { idempotencyKey: 'order-1' })
    const reused = client.createPet({ name: 'Max', categoryId: 1n }, { idempotencyKey: 'order-1' })
    expect(await codeOf(reused)).to.deep.include({ code: 'idempotency_key_reused', status: 422 })
    expect(sent).to.have.length(2)

    sent.length = 0
    expect(await codeOf(client.getPet(INT64_MAX))).to.deep.include({
      code: 'not_found',
      status: 404,
    })
    expect(sent).to.have.length(1)
  })

  it('replays a create whose key was used with the same body: one pet, the same answer', async () => {
    const { client } = countingClient(api.port)
    const pet = { name: 'Rex', categoryId: 5n } as const
    const first = await client.createPet(pet, { idempotencyKey: 'same' })
    expect(await client.createPet(pet, { idempotencyKey: 'same' })).to.deep.equal(first)
    expect((await client.listPets()).pets).to.deep.equal([first])
  })

  it('rejects at once with aborted when the signal has fired', async () => {
    const { client, sent } = countingClient(api.port)
    const error = await codeOf(client.listPets({}, { signal: AbortSignal.abort('stop') }))
    expect(error).to.deep.include({ code: 'aborted', reason: 'stop' })
    expect(sent).to.deep.equal([])
  })
})
