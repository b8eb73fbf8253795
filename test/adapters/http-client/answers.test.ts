import { readFileSync } from 'node:fs'
import { expect } from 'chai'
import fc from 'fast-check'
import { backOffMs, DEFAULT_BUDGET } from '../../../adapters/http-client/budget.js'
import { clientError } from '../../../adapters/http-client/client-error.js'
import { decodeBody, retryAfterSeconds } from '../../../adapters/http-client/answers.js'
import { createClient, type ClientError } from '../../../adapters/http-client/index.js'
import { GET_PET_DEPRECATION, OPERATIONS } from '../../../core/index.js'
import { rejectionOf } from './support.js'

/** A client whose every answer is `response`: how the decoding of odd answers is pinned down. */
const answering = (response: () => Response) =>
  createClient({
    baseUrl: 'http://127.0.0.1:1/v1',
    apiKey: 'k',
    budget: { attempts: 1 },
    fetch: async () => response(),
  })
const failureOf = async (promise: Promise<unknown>) => (await rejectionOf(promise)) as ClientError

describe('the client reading answers', () => {
  it('calls an answer of the wrong shape undecodable, naming the field, never a crash later', async () => {
    const pet = '{"id":1.5,"name":"Rex","categoryId":1}'
    const error = await failureOf(answering(() => new Response(pet, { status: 200 })).getPet(1n))
    expect(error).to.deep.include({ code: 'undecodable', status: 200 })
    expect(error.message).to.match(/id must be/)
    const html = () => new Response('<html>bad gateway</html>', { status: 502 })
    expect(await failureOf(answering(html).listPets())).to.deep.include({
      code: 'undecodable',
      status: 502,
    })
    const wrongStatus = () =>
      new Response('{"code":"not_found","message":"x","status":500}', { status: 500 })
    expect((await failureOf(answering(wrongStatus).listPets())).code).to.equal('undecodable')
  })

  it('refuses a next link it cannot follow rather than take it for the last page', async () => {
    const page = () =>
      new Response('[]', { status: 200, headers: { Link: '</v1/pets?limit=0>; rel="next"' } })
    expect((await failureOf(answering(page).listPets())).code).to.equal('undecodable')
  })

  it("follows a next link with a page size above the interface's 100: the service chose it", async () => {
    const page = () =>
      new Response('[]', {
        status: 200,
        headers: { Link: '</v1/pets?limit=500&after=9223372036854775807>; rel="next"' },
      })
    const { next } = await answering(page).listPets()
    expect(next).to.deep.equal({ limit: 500, after: 9223372036854775807n })
  })

  it('reads Retry-After as seconds or as an HTTP date', () => {
    const now = Date.parse('2030-01-01T00:00:00Z')
    expect(retryAfterSeconds('3', now)).to.equal(3)
    expect(retryAfterSeconds('Tue, 01 Jan 2030 00:00:05 GMT', now)).to.equal(5)
    expect(retryAfterSeconds('Mon, 31 Dec 2029 00:00:00 GMT', now)).to.equal(0)
    expect(retryAfterSeconds('soon', now)).to.equal(undefined)
    expect(retryAfterSeconds(null, now)).to.equal(undefined)
  })

  it('backs off between half and all of the doubled base delay, capped, or the Retry-After plus one base delay', () => {
    const network = clientError({ code: 'network', message: 'x', cause: undefined })
    const unavailable = clientError({
      code: 'unavailable',
      status: 503,
      message: 'x',
      retryAfterSeconds: 2,
    })
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 40 }),
        fc.double({ min: 0, max: 0.999999, noNaN: true }),
        (n, r) => {
          const ceiling = Math.min(
            DEFAULT_BUDGET.maxDelayMs,
            DEFAULT_BUDGET.baseDelayMs * 2 ** (n - 1),
          )
          expect(backOffMs(n, network, DEFAULT_BUDGET, () => r)).to.be.within(ceiling / 2, ceiling)
          expect(backOffMs(n, unavailable, DEFAULT_BUDGET, () => r)).to.be.within(
            2000,
            2000 + DEFAULT_BUDGET.baseDelayMs,
          )
        },
      ),
    )
  })

  it('reads a 204 without a body as done, and a body where none belongs as undecodable', () => {
    const answer = (text: string) => ({ status: 204, headers: new Headers(), text })
    expect(decodeBody('none', answer(''))).to.deep.equal({ _tag: 'Right', right: undefined })
    const body = decodeBody('none', answer('{}'))
    expect(body._tag === 'Left' && body.left.code).to.equal('undecodable')
  })

  it('has a call for each operation of the table but those marked unspecified', () => {
    const client = answering(() => new Response('[]'))
    const specified = Object.values(OPERATIONS)
      .filter((operation) => !('unspecified' in operation))
      .map((operation) => operation.operationId)
    expect(Object.keys(client).filter((k) => k !== 'pages' && k !== 'taskEither')).to.have.members(
      specified,
    )
    expect(Object.keys(client.taskEither)).to.have.members(specified)
    expect(specified).to.not.include('listStoreOrders')
  })

  // The client's promise and TaskEither calls are both mapped from `Calls`, keeping its tags.
  it('marks getPet deprecated in its types with the sunset date the interface gives', () => {
    const source = readFileSync('adapters/http-client/calls.ts', 'utf8')
    const dates = [...source.matchAll(/@deprecated[^\n]*?(\d{4}-\d{2}-\d{2})/g)].map((m) => m[1])
    expect(dates).to.deep.equal([GET_PET_DEPRECATION.sunsetAt.toISOString().slice(0, 10)])
  })
})
