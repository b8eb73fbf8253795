import type { Server } from 'node:http'
import { inspect } from 'node:util'
import { expect } from 'chai'
import {
  createClient,
  type ClientError,
  type ClientOptions,
} from '../../../adapters/http-client/index.js'
import { closeServer, rejectionOf, serve } from './support.js'

const base = { baseUrl: 'http://127.0.0.1:1/v1', apiKey: 'k' }
const DAY_MS = 24 * 3600 * 1000

describe("the client's options", function () {
  this.timeout(10_000)
  let server: Server | undefined
  afterEach(async () => {
    await closeServer(server)
    server = undefined
  })

  const invalid: ReadonlyArray<[string, Partial<ClientOptions>]> = [
    ['timeoutMs', { timeoutMs: NaN }],
    ['timeoutMs', { timeoutMs: 0 }],
    ['timeoutMs', { timeoutMs: -1 }],
    ['maxAnswerBytes', { maxAnswerBytes: 1.5 }],
    ['maxAnswerBytes', { maxAnswerBytes: Infinity }],
    ['budget.attempts', { budget: { attempts: 0 } }],
    ['budget.attempts', { budget: { attempts: Infinity } }],
    ['budget.totalMs', { budget: { totalMs: NaN } }],
    ['budget.baseDelayMs', { budget: { baseDelayMs: Infinity } }],
    ['budget.maxDelayMs', { budget: { maxDelayMs: -1 } }],
    ['timeoutMs', { timeoutMs: '5000' as unknown as number }],
    ['baseUrl', { baseUrl: 'localhost:8080/v1' }],
    ['baseUrl', { baseUrl: 'http://127.0.0.1:99999/v1' }],
    ['baseUrl', { baseUrl: '/v1' }],
    ['apiKey', { apiKey: 'ключ-0123456789abcdef' }],
    ['apiKey', { apiKey: 'key-0123456789abcdef\r\nX-Other: 1' }],
  ]
  for (const [name, options] of invalid)
    it(`refuses ${name} of ${inspect(options)} with a RangeError naming it`, () => {
      expect(() => createClient({ ...base, ...options }))
        .to.throw(RangeError)
        .with.property('message')
        .that.match(new RegExp(`^${name.replace('.', '\\.')} must be`))
    })

  it('rejects a call whose own options are out of range, before sending', async () => {
    let sent = 0
    const client = createClient({ ...base, fetch: async () => (sent++, new Response(null)) })
    const error = await rejectionOf(client.listPets({}, { budget: { totalMs: -5 } }))
    expect(error).to.be.instanceOf(RangeError)
    expect(sent).to.equal(0)
  })

  for (const idempotencyKey of ['заказ-1234', 'order\n1234'])
    it(`rejects an idempotencyKey no header can carry, ${inspect(idempotencyKey)}, never sent`, async () => {
      let sent = 0
      const client = createClient({ ...base, fetch: async () => (sent++, new Response(null)) })
      const error = await rejectionOf(
        client.createPet({ name: 'Rex', categoryId: 1n }, { idempotencyKey }),
      )
      expect(error)
        .to.be.instanceOf(RangeError)
        .with.property('message')
        .that.match(/^idempotencyKey must be text a header can carry/)
      expect(sent).to.equal(0)
    })

  it('rejects an id given as a number past 2^53-1 (already rounded), before sending', async () => {
    const sent: string[] = []
    const client = createClient({
      ...base,
      fetch: async (input) => (sent.push(String(input)), new Response(null)),
    })
    // What a JavaScript caller, with no types to stop it, may write: the number is 2^53 already.
    const rounded = 9007199254740993 as unknown as bigint
    const calls = [
      client.createPet({ name: 'Rex', categoryId: rounded }),
      client.getPet(rounded),
      client.listPets({ after: rounded }),
      client.taskEither.getPet(rounded)(),
    ]
    for (const [call, name] of calls.map((c, i) => [c, ['categoryId', 'id', 'after', 'id'][i]]))
      expect(await rejectionOf(call as Promise<unknown>))
        .to.be.instanceOf(RangeError)
        .with.property('message')
        .that.match(new RegExp(`^${name} must be given exactly: 9007199254740992 .* bigint`))
    expect(sent).to.deep.equal([])
  })

  it('still sends a bigint, or a number up to 2^53-1, digit for digit', async () => {
    const sent: string[] = []
    const client = createClient({
      ...base,
      budget: { attempts: 1 },
      fetch: async (input) => (sent.push(String(input)), new Response(null, { status: 500 })),
    })
    const safe = Number.MAX_SAFE_INTEGER as unknown as bigint
    await rejectionOf(client.getPet(safe))
    await rejectionOf(client.getPet(2n ** 53n + 1n))
    await rejectionOf(client.listPets({ after: safe }))
    expect(sent).to.deep.equal([
      'http://127.0.0.1:1/v1/pets/9007199254740991',
      'http://127.0.0.1:1/v1/pets/9007199254740993',
      'http://127.0.0.1:1/v1/pets?after=9007199254740991',
    ])
  })

  for (const timeoutMs of [Infinity, 2 ** 31, 30 * DAY_MS])
    it(`waits for a slow answer with timeoutMs ${timeoutMs}: not cut to 1 ms`, async () => {
      const slow = await serve((_req, res) => {
        setTimeout(() => res.writeHead(200, { 'Content-Type': 'application/json' }).end('[]'), 50)
      })
      server = slow.server
      const client = createClient({
        ...base,
        baseUrl: slow.url,
        timeoutMs,
        budget: { attempts: 1, totalMs: Infinity },
      })
      expect((await client.listPets()).pets).to.deep.equal([])
    })

  it('waits out a Retry-After past 2^31 ms when totalMs is Infinity, never retrying at once', async () => {
    let requests = 0
    const unavailable = await serve((_req, res) => {
      requests++
      res
        .writeHead(503, { 'Content-Type': 'application/json', 'Retry-After': '3000000' })
        .end('{"code":"unavailable","message":"down","status":503}')
    })
    server = unavailable.server
    const client = createClient({
      ...base,
      baseUrl: unavailable.url,
      budget: { attempts: 2, totalMs: Infinity },
    })
    const error = (await rejectionOf(
      client.listPets({}, { signal: AbortSignal.timeout(300) }),
    )) as ClientError
    expect(error.code).to.equal('aborted')
    expect(requests).to.equal(1)
  })
})
