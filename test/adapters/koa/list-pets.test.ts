import { expect } from 'chai'
import fc from 'fast-check'
import type { Pet } from '../../../core/index.js'
import { newPet, petStatus } from '../../../adapters/testing/index.js'
import { startTestApi, type TestApi } from '../../support/app.js'
import { expectError } from '../../support/expect-error.js'
import { forEachBackend } from '../../support/backends.js'

const nextOf = (link: string | string[] | undefined): string | undefined =>
  /^<([^>]+)>; rel="next"$/.exec(typeof link === 'string' ? link : '')?.[1]

forEachBackend('HTTP: GET /pets', (backend) => {
  let api: TestApi
  beforeEach(async () => (api = await startTestApi({ backend })))
  afterEach(() => api.close())

  const seed = async (n: number, status?: string) => {
    for (let i = 0; i < n; i++)
      await api.createPet({ name: `pet ${i}`, categoryId: 1n, ...(status ? { status } : {}) })
  }

  it('lists an empty catalogue as []', async () => {
    const reply = await api.get('/pets')
    expect(reply.status).to.equal(200)
    expect(reply.text).to.equal('[]')
    expect(reply.headers.link).to.equal(undefined)
  })

  it('returns 20 by default, in ascending id order, with a next link', async () => {
    await seed(25)
    const reply = await api.get('/pets')
    const ids = (reply.json as Pet[]).map((p) => p.id)
    expect(ids).to.deep.equal(Array.from({ length: 20 }, (_, i) => BigInt(i + 1)))
    expect(reply.headers.link).to.equal('</v1/pets?limit=20&after=20>; rel="next"')
    const rest = await api.request({
      path: nextOf(reply.headers.link) as string,
      headers: { Authorization: 'Bearer test-key-0123456789abcdef' },
    })
    expect((rest.json as Pet[]).map((p) => p.id)).to.deep.equal([21n, 22n, 23n, 24n, 25n])
    expect(rest.headers.link).to.equal(undefined)
  })

  it('accepts limit from 1 to 100', async () => {
    await seed(101)
    for (const limit of [1, 2, 50, 99, 100]) {
      expect((await api.get(`/pets?limit=${limit}`)).json).to.have.length(limit)
    }
  })

  it('refuses an invalid limit with 400 naming it', async () => {
    for (const value of [
      '0',
      '101',
      '-1',
      '1.5',
      '1e1',
      'abc',
      '',
      '+5',
      ' 5',
      '5 ',
      '0x10',
      '99999999999999999999',
      '%00',
    ]) {
      expectError(
        await api.get(`/pets?limit=${encodeURIComponent(value)}`),
        400,
        'invalid_request',
        'limit',
      )
    }
    expectError(
      await api.get('/pets?limit=5&limit=6'),
      400,
      'invalid_request',
      'limit must be given only once',
    )
    expectError(await api.get('/pets?limit'), 400, 'invalid_request', 'limit')
  })

  it('filters by status and refuses unknown statuses', async () => {
    await seed(3, 'sold')
    await seed(2, 'pending')
    await seed(2)
    const sold = (await api.get('/pets?status=sold')).json as Pet[]
    expect(sold.map((p) => p.id)).to.deep.equal([1n, 2n, 3n])
    expect((await api.get('/pets?status=available')).text).to.equal('[]')
    for (const value of ['SOLD', 'unknown', '', 'sold,pending']) {
      expectError(await api.get(`/pets?status=${value}`), 400, 'invalid_request', 'status')
    }
    expectError(
      await api.get('/pets?status=sold&status=pending'),
      400,
      'invalid_request',
      'status must be given only once',
    )
  })

  it('refuses unknown and smuggled parameters, naming them', async () => {
    for (const query of [
      'offset=5',
      'page=2',
      'status[$ne]=sold',
      'status[]=sold',
      'Limit=5',
      'cursor=abc',
    ]) {
      expectError(
        await api.get(`/pets?${query}`),
        400,
        'invalid_request',
        'is not a known parameter',
      )
    }
    expectError(await api.get('/pets?after=0'), 400, 'invalid_request', 'after')
    // A parameter without a name is named as "", not as the whole query.
    const unnamed = await api.get('/pets?=1')
    expectError(unnamed, 400, 'invalid_request', '"" is not a known parameter')
    expect((unnamed.json as { message: string }).message).not.to.include('query')
  })

  it('never returns more than limit, sorted and filtered, and its next links visit every match once (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(newPet(), { maxLength: 30 }),
        fc.integer({ min: 1, max: 7 }),
        fc.option(petStatus(), { nil: undefined }),
        async (pets, limit, status) => {
          const local = await startTestApi({ backend })
          try {
            for (const pet of pets) await local.createPet(pet)
            let path: string | undefined =
              `/v1/pets?limit=${limit}${status ? `&status=${status}` : ''}`
            const seen: Pet[] = []
            while (path !== undefined) {
              const reply = await local.request({
                path,
                headers: { Authorization: 'Bearer test-key-0123456789abcdef' },
              })
              const page = reply.json as Pet[]
              expect(page.length).to.be.at.most(limit)
              if (reply.headers.link !== undefined) expect(page.length).to.equal(limit)
              seen.push(...page)
              path = nextOf(reply.headers.link)
            }
            const expected = pets
              .map((pet, i) => ({ ...pet, id: BigInt(i + 1) }))
              .filter((pet) => status === undefined || pet.status === status)
            expect(seen.map((p) => p.id)).to.deep.equal(expected.map((p) => p.id))
            expect(seen).to.deep.equal(expected.map(({ id, ...rest }) => ({ id, ...rest })))
          } finally {
            await local.close()
          }
        },
      ),
      { numRuns: 25 },
    )
  })
})
