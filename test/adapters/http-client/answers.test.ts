import { readFileSync } from 'node:fs'
import { expect } from 'chai'
import fc from 'fast-check'
import { backOffMs, DEFAULT_BUDGET } from '../../../adapters/http-client/budget.js'
import { clientError } from '../../../adapters/http-client/client-error.js'
import { decodeBody } from '../../../adapters/http-client/answers.js'
import { retryAfterSeconds } from '../../../adapters/http-client/retry-after.js'
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
const JSON_TYPE = { 'Content-Type': 'application/json; charset=utf-8' }

describe('the client reading answers', () => {
  it('calls an answer of the wrong shape undecodable, naming the field, never a crash later', async () => {
    const pet = '{"id":1.5,"name":"Rex","categoryId":1}'
    const answer = () => new Response(pet, { status: 200, headers: JSON_TYPE })
    const error = await failureOf(answering(answer).getPet(1n))
    expect(error).to.deep.include({ code: 'undecodable', status: 200 })
    expect(error.message).to.match(/id must be/)
    const wrongStatus = () =>
      new Response('{"code":"not_found","message":"x","status":500}', { status: 500 })
    expect((await failureOf(answering(wrongStatus).listPets())).code).to.equal('undecodable')
  })

  it('refuses a next link it cannot follow rather than take it for the last page', async () => {
    const page = () =>
      new Response('[]', {
        status: 200,
        headers: { ...JSON_TYPE, Link: '</v1/pets?limit=0>; rel="next"' },
      })
    expect((await failureOf(answering(page).listPets())).code).to.equal('undecodable')
  })

  it("follows a next link with a page size above the interface's 100: the service chose it", async () => {
    const page = () =>
      new Response('[]', {
        status: 200,
        headers: {
          ...JSON_TYPE,
          Link: '</v1/pets?limit=500&after=9223372036854775807>; rel="next"',
        },
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

  it('reads the obsolete HTTP-date forms too: RFC 850 (two-digit year) and asctime', () => {
    const now = Date.parse('2030-01-01T00:00:00Z')
    expect(retryAfterSeconds('Tuesday, 01-Jan-30 00:00:07 GMT', now)).to.equal(7)
    expect(retryAfterSeconds('Tue Jan  1 00:00:09 2030', now)).to.equal(9)
    // More than 50 years ahead is the past century's: 2099 is 1999, long gone.
    expect(retryAfterSeconds('Friday, 01-Jan-99 00:00:00 GMT', now)).to.equal(0)
  })

  it('counts a malformed Retry-After as absent, never as "retry now"', () => {
    const now = Date.parse('2030-01-01T00:00:00Z')
    for (const header of [
      '-5',
      '1.5',
      '+2',
      '2, 3',
      '0x10',
      '',
      '2030-01-01T00:00:05Z',
      'Tue, 1 Jan 2030 00:00:05 GMT',
      'Tue, 01 Jan 2030 00:00:05 UTC',
      'Tue, 31 Feb 2030 00:00:05 GMT',
      'Tue, 01 Jan 2030 24:00:05 GMT',
    ])
      expect(retryAfterSeconds(header, now), header).to.equal(undefined)
  })

  it('calls a success whose body is not application/json undecodable, parameters allowed', async () => {
    const page = (contentType: string) => () =>
      new Response('[]', { status: 200, headers: { 'Content-Type': contentType } })
    for (const type of ['text/html', 'text/plain; charset=utf-8', 'application/jsonp'])
      expect(await failureOf(answering(page(type)).listPets()), type).to.deep.include({
        code: 'undecodable',
        status: 200,
      })
    expect((await answering(page('Application/JSON;charset=UTF-8')).listPets()).pets).to.deep.equal(
      [],
    )
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
