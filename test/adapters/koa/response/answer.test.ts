import { expect } from 'chai'
import { ESLint } from 'eslint'
import Koa from 'koa'
import type { AppContext } from '../../../../adapters/koa/index.js'
import { createResponder } from '../../../../adapters/koa/response/answer/index.js'
import { composeApp } from '../../../../apps/server/compose.js'
import { silentLogger } from '../../../../core/index.js'
import { storageFor } from '../../../support/backends.js'
import { answersOf, bothWays, raw, whileServing } from '../../../support/both-ways.js'
import { TEST_KEY, testConfig } from '../../../support/app.js'

/** An answer's status, header lines (Date left out) and body, read from its bytes. */
const partsOf = (answer: string) => {
  const [head = '', body] = answer.split('\r\n\r\n', 2)
  const [statusLine, ...headers] = head.split('\r\n')
  return { statusLine, headers, body }
}

/** The value of header `name` in an answer's header lines, or undefined. */
const headerOf = (headers: ReadonlyArray<string>, name: string): string | undefined =>
  headers.find((line) => line.toLowerCase().startsWith(`${name.toLowerCase()}: `))?.split(': ')[1]

describe('an answer is written by one module, served by Koa or by the root writer', () => {
  // Without rate limits: their RateLimit header counts time, which differs from run to run.
  const config = testConfig({ RATE_LIMIT: 'off', CORS_ORIGINS: 'https://app.example' })
  const compose = async () =>
    composeApp(config, await storageFor('in-memory'), config.apiKeys, silentLogger)
  const id = 'X-Request-Id: fixed-id'
  const key = `Authorization: Bearer ${TEST_KEY}`
  const pet = '{"name":"Rex","categoryId":7,"status":"available"}'
  const json = ['Content-Type: application/json', `Content-Length: ${pet.length}`]
  const preflight = ['Origin: https://app.example', 'Access-Control-Request-Method: POST']

  it('gives the same status, headers and bytes for each kind of answer', async () => {
    const docs = await whileServing((await compose()).callback(), async (port) =>
      partsOf((await answersOf(port, [raw('GET', '/v1/docs', [id])]))[0]!),
    )
    const etag = headerOf(docs.headers, 'ETag')
    expect(etag, 'the docs page is tagged').to.be.a('string')
    const kinds = {
      created: raw('POST', '/v1/pets', [id, key, ...json], pet),
      createdToo: raw('POST', '/v1/pets', [id, key, ...json], pet),
      pet: raw('GET', '/v1/pets/1', [id, key]),
      listWithLink: raw('GET', '/v1/pets?limit=1', [id, key]),
      problem: raw('GET', '/v1/pets/99', [id, key]),
      refused: raw('GET', '/v1/pets', [id]),
      noContent: raw('OPTIONS', '/v1/pets', [id, ...preflight]),
      notModified: raw('GET', '/v1/docs', [id, `If-None-Match: ${etag}`]),
      head: raw('HEAD', '/v1/pets/1', [id, key]),
      headOfList: raw('HEAD', '/v1/pets?limit=1', [id, key]),
    }
    const { viaKoa, viaRoot } = await bothWays(compose, Object.values(kinds))
    expect(viaRoot).to.deep.equal(viaKoa)

    // Not vacuous: each answer is of the kind it stands for.
    const answer = Object.fromEntries(
      Object.keys(kinds).map((kind, i) => [kind, partsOf(viaKoa[i]!)]),
    ) as Record<keyof typeof kinds, ReturnType<typeof partsOf>>
    expect(answer.created.statusLine).to.equal('HTTP/1.1 201 Created')
    expect(headerOf(answer.created.headers, 'Location')).to.equal('/v1/pets/1')
    expect(answer.pet.body).to.equal('{"id":1,"name":"Rex","categoryId":7,"status":"available"}')
    expect(headerOf(answer.listWithLink.headers, 'Link')).to.match(/after=1>; rel="next"$/)
    expect(JSON.parse(answer.problem.body!)).to.include({ code: 'not_found', status: 404 })
    expect(headerOf(answer.refused.headers, 'WWW-Authenticate')).to.match(/^Bearer /)
    for (const empty of [answer.noContent, answer.notModified]) {
      expect(empty.statusLine).to.match(/^HTTP\/1\.1 (204|304) /)
      expect(empty.body).to.equal('')
      expect(headerOf(empty.headers, 'Content-Type')).to.equal(undefined)
    }
    expect(headerOf(answer.noContent.headers, 'Access-Control-Max-Age')).to.equal('600')
    expect(headerOf(answer.notModified.headers, 'ETag')).to.equal(etag)
    // HEAD: the GET's headers, its Content-Length and Link included, and no body.
    for (const [head, get] of [
      [answer.head, answer.pet],
      [answer.headOfList, answer.listWithLink],
    ] as const) {
      expect(head.body).to.equal('')
      expect(head.headers).to.deep.equal(get.headers)
      expect(headerOf(head.headers, 'Content-Length')).to.equal(String(get.body!.length))
    }
  })
})

describe("a Responder's answers, in any Koa app", () => {
  it('are the same through Koa and the root writer: JSON, empty, a problem', async () => {
    const respond = createResponder({ retryAfterSeconds: 3, logger: silentLogger })
    const plain = async () => {
      const app = new Koa()
      app.use((ctx: AppContext) => {
        if (ctx.path === '/json') respond.json(ctx, 201, '{"pet":1}')
        else if (ctx.path === '/empty') respond.empty(ctx, 204)
        else respond.problem(ctx, { _tag: 'StoreUnavailable', detail: 'down' })
      })
      return app
    }
    const requests = ['/json', '/empty', '/problem'].map((path) => raw('GET', path))
    const { viaKoa, viaRoot } = await bothWays(plain, requests)
    expect(viaRoot).to.deep.equal(viaKoa)
    const [json, empty, problem] = viaKoa.map(partsOf)
    expect(json?.statusLine).to.equal('HTTP/1.1 201 Created')
    expect(headerOf(json!.headers, 'Content-Type')).to.equal('application/json')
    expect(json?.body).to.equal('{"pet":1}')
    expect(empty?.statusLine).to.equal('HTTP/1.1 204 No Content')
    expect(empty?.body).to.equal('')
    expect(problem?.statusLine).to.equal('HTTP/1.1 503 Service Unavailable')
    expect(headerOf(problem!.headers, 'Retry-After')).to.equal('3')
    expect(JSON.parse(problem!.body!)).to.include({ code: 'unavailable', status: 503 })
  })
})

describe('the app writes its answers one way (ESLint)', function () {
  // The first lint loads the whole configuration, which takes seconds on a busy machine.
  this.timeout(60_000)
  const eslint = new ESLint()
  const errorsIn = async (code: string) =>
    (
      await eslint.lintText(code, { filePath: 'adapters/koa/app/routes/example.ts' })
    )[0]?.messages.map((m) => m.message) ?? []

  it('refuses a header or an answer set other than through response/answer/', async () => {
    for (const code of [
      "ctx.set('Link', link)",
      'ctx.set({ Link: link })',
      "ctx.remove('Link')",
      "ctx.append('Link', link)",
      "ctx.res.setHeader('Link', link)",
      "ctx.response.res.removeHeader('Link')",
      'ctx.res.writeHead(200)',
      'ctx.status = 204',
      "ctx.body = '{}'",
      "ctx.type = 'json'",
      'ctx.length = 2',
    ])
      expect((await errorsIn(`${code}\n`)).join(), code).to.match(/response\/answer\//)
    const allowed = [
      "setHeader(ctx, 'Link', link)",
      "ctx.vary('Origin')",
      "setJsonAnswer(ctx, 200, '{}')",
      'export const status = ctx.status',
    ]
    for (const code of allowed) expect(await errorsIn(`${code}\n`), code).to.deep.equal([])
  })
})
