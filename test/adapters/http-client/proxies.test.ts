import type { IncomingMessage, Server } from 'node:http'
import { expect } from 'chai'
import { createClient, type ClientError } from '../../../adapters/http-client/index.js'
import { closeServer, rejectionOf, serve } from './support.js'

const HTML = { 'Content-Type': 'text/html' }
const JSON_TYPE = { 'Content-Type': 'application/json' }
const PET = '{"id":1,"name":"Rex","categoryId":1,"status":"available"}'
const PROXY_PAGE =
  '<html><body><h1>503 Service Unavailable</h1>No server is available</body></html>'

const clientOf = (baseUrl: string, attempts: number) =>
  createClient({ baseUrl, apiKey: 'k', budget: { attempts, baseDelayMs: 10, totalMs: 5000 } })

const failureOf = async (promise: Promise<unknown>) => (await rejectionOf(promise)) as ClientError

describe('the client behind a proxy', function () {
  this.timeout(10_000)
  let servers: Server[] = []
  afterEach(async () => {
    await Promise.all(servers.map(closeServer))
    servers = []
  })
  /** A server whose answer to its nth request (from 1) is `answer(n)`; it keeps the requests. */
  const start = async (answer: (n: number) => [number, Record<string, string>, string]) => {
    const requests: IncomingMessage[] = []
    const { server, url } = await serve((req, res) => {
      requests.push(req)
      const [status, headers, body] = answer(requests.length)
      res.writeHead(status, headers).end(body)
    })
    servers.push(server)
    return { url, requests }
  }

  for (const status of [502, 503, 504])
    it(`retries a proxy's own ${status} page (not an Error body), with the same Idempotency-Key`, async () => {
      const { url, requests } = await start((n) =>
        n < 3 ? [status, HTML, PROXY_PAGE] : [201, JSON_TYPE, PET],
      )
      const pet = await clientOf(url, 5).createPet({ name: 'Rex', categoryId: 1n })
      expect(pet.id).to.equal(1n)
      expect(requests).to.have.length(3)
      const keys = new Set(requests.map((r) => r.headers['idempotency-key']))
      expect(keys.size).to.equal(1)
    })

  it("ends with budget_exhausted naming the proxy's last answer when it never clears", async () => {
    const { url, requests } = await start(() => [502, HTML, PROXY_PAGE])
    const failure = await failureOf(clientOf(url, 2).listPets())
    expect(failure).to.include({ code: 'budget_exhausted', attempts: 2 })
    expect(failure.code === 'budget_exhausted' && failure.last).to.include({
      code: 'undecodable',
      status: 502,
    })
    expect(requests).to.have.length(2)
  })

  it('does not retry a 500 without an Error body: undecodable at once', async () => {
    const { url, requests } = await start(() => [500, HTML, '<html>oops</html>'])
    expect(await failureOf(clientOf(url, 5).listPets())).to.include({
      code: 'undecodable',
      status: 500,
    })
    expect(requests).to.have.length(1)
  })

  it('does not follow a redirect: a 307 to another origin is undecodable, sent there never', async () => {
    const elsewhere = await start(() => [201, JSON_TYPE, PET])
    const { url, requests } = await start(() => [307, { Location: `${elsewhere.url}/pets` }, ''])
    const failure = await failureOf(clientOf(url, 5).createPet({ name: 'Rex', categoryId: 1n }))
    expect(failure).to.include({ code: 'undecodable', status: 307 })
    expect(requests).to.have.length(1)
    expect(elsewhere.requests).to.have.length(0)
  })
})
