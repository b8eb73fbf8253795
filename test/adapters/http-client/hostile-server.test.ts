import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { expect } from 'chai'
import {
  createClient,
  DEFAULT_MAX_ANSWER_BYTES,
  isClientError,
  type ClientError,
  type ClientOptions,
} from '../../../adapters/http-client/index.js'
import { rejectionOf, serve } from './support.js'

const MB = 2 ** 20

const clientOf = (baseUrl: string, options: Partial<ClientOptions> = {}) =>
  createClient({ baseUrl, apiKey: 'k', timeoutMs: 5000, budget: { attempts: 1 }, ...options })

const failureOf = async (promise: Promise<unknown>): Promise<ClientError> => {
  const error = await rejectionOf(promise)
  expect(isClientError(error), String(error)).to.equal(true)
  return error as ClientError
}

describe('the client against a hostile server', function () {
  this.timeout(30_000)
  let server: Server | undefined
  afterEach(async () => {
    server?.closeAllConnections()
    await new Promise((done) => server?.close(done))
  })

  it('stops reading an endless 200 body at maxAnswerBytes: answer_too_large, memory flat', async () => {
    let sent = 0
    const chunk = Buffer.alloc(64 * 1024, 0x20)
    let closed!: () => void
    const connectionClosed = new Promise<void>((done) => (closed = done))
    ;({ server } = await serve((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' })
      res.on('close', closed)
      const pump = () => {
        while (!res.destroyed && res.write(chunk)) sent += chunk.length
        if (!res.destroyed) res.once('drain', pump)
      }
      pump()
    }))
    const rssBefore = process.memoryUsage().rss
    const started = performance.now()
    const failure = await failureOf(clientOf(url(server)).listPets())
    const elapsed = performance.now() - started
    const grown = process.memoryUsage().rss - rssBefore
    await connectionClosed
    expect(failure.code).to.equal('answer_too_large')
    expect(failure).to.include({ status: 200, maxAnswerBytes: DEFAULT_MAX_ANSWER_BYTES })
    expect(elapsed, 'ms: at the bound, not at the timeout').to.be.below(4000)
    // What the server could write: the bound, and what the sockets' buffers hold on the way.
    expect(sent / MB, 'MB sent before the client closed').to.be.below(16)
    expect(grown / MB, 'MB of RSS grown').to.be.below(64)
  })

  it('refuses a body whose Content-Length is past the bound without waiting for it', async () => {
    ;({ server } = await serve((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': 10 * 2 ** 30 })
      res.write('[')
    }))
    const started = performance.now()
    const failure = await failureOf(clientOf(url(server)).listPets())
    expect(failure.code).to.equal('answer_too_large')
    expect(performance.now() - started).to.be.below(4000)
  })

  it('takes its bound from maxAnswerBytes', async () => {
    const pets = Array.from({ length: 10 }, (_, i) => `{"id":${i + 1},"name":"Rex","categoryId":1}`)
    const page = `[${pets.join(',')}]`
    ;({ server } = await serve((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' }) // chunked: no Content-Length
      res.end(page)
    }))
    const bounded = clientOf(url(server), { maxAnswerBytes: page.length - 1 })
    expect(await failureOf(bounded.listPets())).to.include({
      code: 'answer_too_large',
      maxAnswerBytes: page.length - 1,
    })
    const fits = clientOf(url(server), { maxAnswerBytes: page.length })
    expect((await fits.listPets()).pets).to.have.length(10)
  })

  for (const [title, nextAfter] of [
    ['the same', (after: number) => after],
    ['a smaller', (after: number) => after - 1],
    ['no', () => undefined],
  ] as const)
    it(`pages() fails with pagination_stalled on a next link with ${title} after`, async () => {
      let requests = 0
      ;({ server } = await serve((req, res) => {
        requests++
        const after = Number(new URL(req.url ?? '', 'http://x').searchParams.get('after') ?? 0)
        const next = nextAfter(after)
        const query = next === undefined ? 'limit=2' : `limit=2&after=${next}`
        res.writeHead(200, {
          'Content-Type': 'application/json',
          Link: `</v1/pets?${query}>; rel="next"`,
        })
        res.end(
          `[{"id":${after + 1},"name":"a","categoryId":1},{"id":${after + 2},"name":"b","categoryId":1}]`,
        )
      }))
      const seen: bigint[] = []
      const failure = await failureOf(
        (async () => {
          for await (const page of clientOf(url(server)).pages({ limit: 2, after: 10n }))
            seen.push(...page.map((p) => p.id))
        })(),
      )
      expect(failure).to.include({ code: 'pagination_stalled', lastId: 12n })
      expect(failure.message).to.include('would repeat pages')
      expect(seen).to.deep.equal([11n, 12n])
      expect(requests).to.equal(1)
    })
})

const url = (server: Server | undefined) =>
  `http://127.0.0.1:${(server?.address() as AddressInfo).port}/v1`
