import { expect } from 'chai'
import { createServer, type Server } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import type { AppContext } from '../../../adapters/koa/app-state.js'
import {
  sendAnswer,
  setAnswer,
  setAnswerHeader,
  setJsonAnswer,
} from '../../../adapters/koa/answer.js'
import Koa from 'koa'
import { KoaApp } from '../../../adapters/koa/koa-app.js'
import { createHttpServer, type HttpServer } from '../../../adapters/koa/index.js'
import { composeApp } from '../../../apps/server/compose.js'
import { silentLogger } from '../../../core/index.js'
import { storageFor } from '../../support/backends.js'
import { DEFAULT_LIMITS } from '../../support/http.js'
import { openRaw, sendRaw, type RawConnection } from '../../support/raw.js'
import { TEST_KEY, testConfig } from '../../support/app.js'

/** How the server's side of each connection handed bytes to the kernel. */
type WriteCounts = { writes: number; writevs: number }

/** Tells `seen` of each write(2) and writev(2) request the socket makes, as Node's streams make them. */
const watchWrites = (socket: Socket, seen: (kind: 'write' | 'writev') => void): void => {
  const sock = socket as unknown as Record<'_write' | '_writev', (...args: unknown[]) => unknown>
  const write = sock._write.bind(socket)
  const writev = sock._writev.bind(socket)
  sock._write = (...args) => (seen('write'), write(...args))
  sock._writev = (...args) => (seen('writev'), writev(...args))
}

const request = (method: string, path: string, body?: string): string =>
  [
    `${method} ${path} HTTP/1.1`,
    'Host: localhost',
    `Authorization: Bearer ${TEST_KEY}`,
    ...(body === undefined
      ? []
      : ['Content-Type: application/json', `Content-Length: ${Buffer.byteLength(body)}`]),
    '',
    body ?? '',
  ].join('\r\n')

describe('answers are sent in one write', () => {
  let http: HttpServer
  let connection: RawConnection
  const counts: WriteCounts = { writes: 0, writevs: 0 }

  before(async () => {
    const config = testConfig()
    const app = composeApp(config, await storageFor('in-memory'), config.apiKeys, silentLogger)
    http = createHttpServer(app.callback(), DEFAULT_LIMITS, silentLogger)
    http.server.on('connection', (socket: Socket) =>
      watchWrites(socket, (kind) => (kind === 'write' ? counts.writes++ : counts.writevs++)),
    )
    await new Promise<void>((resolve) => http.server.listen(0, '127.0.0.1', resolve))
    connection = await openRaw((http.server.address() as AddressInfo).port)
  })

  after(async () => {
    connection.socket.destroy()
    await new Promise((resolve) => http.server.close(resolve))
  })

  /** Sends one request on the kept-alive connection; the writes its answer took. */
  const exchange = async (text: string, answered: RegExp): Promise<WriteCounts> => {
    counts.writes = 0
    counts.writevs = 0
    const before = connection.received().length
    connection.socket.write(text)
    await connection.waitFor(new RegExp(`[^]{${before}}${answered.source}`))
    return { ...counts }
  }

  it('headers and body together, on a connection kept alive: creates, reads, listings, errors', async () => {
    const body = '{"name":"Rex","categoryId":7,"status":"available"}'
    const cases: Array<[string, RegExp]> = [
      [request('POST', '/v1/pets', body), /HTTP\/1\.1 201[^]*\r\n\r\n\{"id":1,[^]*\}$/],
      [request('GET', '/v1/pets/1'), /HTTP\/1\.1 200[^]*\r\n\r\n\{"id":1,[^]*\}$/],
      [request('GET', '/v1/pets?limit=5'), /HTTP\/1\.1 200[^]*\r\n\r\n\[\{"id":1,[^]*\]$/],
      [request('GET', '/v1/nowhere'), /HTTP\/1\.1 404[^]*\r\n\r\n\{"code":"not_found"[^]*\}$/],
    ]
    for (const [text, answered] of cases)
      expect(await exchange(text, answered), text.split('\r\n')[0]).to.deep.equal({
        writes: 1,
        writevs: 0,
      })
    expect(connection.received()).not.to.match(/Connection: close/i)
    expect(connection.socket.destroyed).to.equal(false)
  })

  it('answers pipelined requests (sent in one packet) each whole and in order', async () => {
    const before = connection.received().length
    connection.socket.write(
      request('GET', '/v1/pets/1') + request('GET', '/v1/nowhere') + request('GET', '/v1/pets/1'),
    )
    const answer = /HTTP\/1\.1 (\d{3})[^]*?\r\n\r\n(\{[^]*?\})(?=HTTP|$)/.source
    await connection.waitFor(new RegExp(`[^]{${before}}${answer}${answer}${answer}$`))
    const answers = [...connection.received().slice(before).matchAll(new RegExp(answer, 'g'))]
    expect(answers.map((a) => a[1])).to.deep.equal(['200', '404', '200'])
    const pet = '{"id":1,"name":"Rex","categoryId":7,"status":"available"}'
    expect(answers[0]?.[2]).to.equal(pet)
    expect(answers[1]?.[2]).to.match(/^\{"code":"not_found",/)
    expect(answers[2]?.[2]).to.equal(pet)
  })

  it('answers HEAD with the GET headers, Content-Length included, and no body', async () => {
    const before = connection.received().length
    connection.socket.write(request('HEAD', '/v1/pets/1'))
    await connection.waitFor(new RegExp(`[^]{${before}}HTTP/1\\.1 200[^]*\\r\\n\\r\\n$`))
    await new Promise((resolve) => setTimeout(resolve, 50))
    const answer = connection.received().slice(before)
    expect(answer).to.match(/\r\nContent-Length: \d+\r\n/i)
    expect(answer.endsWith('\r\n\r\n')).to.equal(true)
  })
})

describe('answers decided in one turn of the event loop are sent together at its end', () => {
  let server: Server
  let port: number
  /** In order: `answered <path>` when sendAnswer returned, its next tick, and each write(2). */
  const events: string[] = []
  /** Resolved once both requests have arrived, so that both are answered in the same turn. */
  let bothArrived: () => void = () => undefined
  let arrivals = 0
  const together = new Promise<void>((resolve) => (bothArrived = resolve))

  before(async () => {
    const app = new KoaApp()
    app.use(async (ctx) => {
      arrivals += 1
      if (arrivals === 2) bothArrived()
      await together
      setJsonAnswer(ctx as AppContext, 200, `"answer ${ctx.path}"`)
      sendAnswer(ctx as AppContext)
      events.push(`answered ${ctx.path}`)
      process.nextTick(() => events.push(`next tick after ${ctx.path}`))
    })
    server = createServer(app.callback())
    server.on('connection', (socket: Socket) => watchWrites(socket, (kind) => events.push(kind)))
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    port = (server.address() as AddressInfo).port
  })

  after(() => new Promise((resolve) => server.close(resolve)))

  it('writes nothing until both are decided, then each in one write', async () => {
    const [a, b] = await Promise.all([openRaw(port), openRaw(port)])
    a.socket.write('GET /a HTTP/1.1\r\nHost: x\r\n\r\n')
    b.socket.write('GET /b HTTP/1.1\r\nHost: x\r\n\r\n')
    await a.waitFor(/\r\n\r\n"answer \/a"$/)
    await b.waitFor(/\r\n\r\n"answer \/b"$/)
    a.socket.destroy()
    b.socket.destroy()
    const order = events.map((e) => e.replace(/\/[ab]/, '*'))
    expect(order).to.deep.equal([
      'answered *',
      'answered *',
      'next tick after *',
      'next tick after *',
      'write',
      'write',
    ])
  })
})

describe("an answer's headers", () => {
  let server: Server
  let port: number

  before(async () => {
    const app = new KoaApp()
    app.use((koaCtx) => {
      const ctx = koaCtx as AppContext
      setAnswerHeader(ctx, 'X-Request-Id', 'first')
      if (ctx.path === '/twice') setAnswerHeader(ctx, 'x-request-ID', 'second')
      if (ctx.path === '/beside-koa') {
        // As CORS does: on the response directly, through Koa.
        ctx.vary('Origin')
        ctx.set('X-Request-Id', 'set through Koa')
        setAnswerHeader(ctx, 'X-Request-Id', 'answer header')
      }
      if (ctx.path === '/not-json')
        setAnswer(ctx, 200, 'text/html; charset=utf-8', Buffer.from('<p>page</p>'))
      else if (ctx.path === '/no-content') ctx.status = 204
      else setJsonAnswer(ctx, 201, '{"pet":1}')
      sendAnswer(ctx)
    })
    server = createServer(app.callback())
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    port = (server.address() as AddressInfo).port
  })

  after(() => new Promise((resolve) => server.close(resolve)))

  const send = (method: string, path: string) =>
    sendRaw(port, `${method} ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`)
  const valuesOf = (head: string, name: string): string[] =>
    [...head.matchAll(new RegExp(`\\r\\n${name}: ([^\\r]*)`, 'gi'))].map((m) => m[1] as string)

  it('go out with the status, the JSON type and length, and the body', async () => {
    const reply = await send('GET', '/')
    expect(reply.status).to.equal(201)
    expect(valuesOf(reply.head, 'X-Request-Id')).to.deep.equal(['first'])
    expect(valuesOf(reply.head, 'Content-Type')).to.deep.equal(['application/json'])
    expect(valuesOf(reply.head, 'Content-Length')).to.deep.equal(['9'])
    expect(reply.body).to.equal('{"pet":1}')
  })

  it('once each: a later value replaces an earlier one, whatever the case of the name', async () => {
    const reply = await send('GET', '/twice')
    expect(valuesOf(reply.head, 'X-Request-Id')).to.deep.equal(['second'])
  })

  it('join those other middleware set on the response, and win over one of the same name', async () => {
    const reply = await send('GET', '/beside-koa')
    expect(valuesOf(reply.head, 'Vary')).to.deep.equal(['Origin'])
    expect(valuesOf(reply.head, 'X-Request-Id')).to.deep.equal(['answer header'])
    expect(reply.body).to.equal('{"pet":1}')
  })

  it('go with every kind of answer: a body that is not JSON, a bodiless status, and HEAD', async () => {
    const page = await send('GET', '/not-json')
    expect(valuesOf(page.head, 'X-Request-Id')).to.deep.equal(['first'])
    expect(valuesOf(page.head, 'Content-Type')).to.deep.equal(['text/html; charset=utf-8'])
    expect(valuesOf(page.head, 'Content-Length')).to.deep.equal(['11'])
    expect(page.body).to.equal('<p>page</p>')
    const empty = await send('GET', '/no-content')
    expect(empty.status).to.equal(204)
    expect(valuesOf(empty.head, 'X-Request-Id')).to.deep.equal(['first'])
    expect(valuesOf(empty.head, 'Content-Type')).to.deep.equal([])
    expect(valuesOf(empty.head, 'Content-Length')).to.deep.equal([])
    expect(empty.body).to.equal('')
    const head = await send('HEAD', '/')
    expect(head.status).to.equal(201)
    expect(valuesOf(head.head, 'X-Request-Id')).to.deep.equal(['first'])
    expect(valuesOf(head.head, 'Content-Type')).to.deep.equal(['application/json'])
    expect(valuesOf(head.head, 'Content-Length')).to.deep.equal(['9'])
    expect(head.body).to.equal('')
  })
})

/** Serves the app on a loopback port while `use` runs, with a GET of one path at a time. */
const whileServing = async (
  app: { callback: () => Parameters<typeof createServer>[1] },
  use: (get: (path: string) => ReturnType<typeof sendRaw>) => Promise<void>,
) => {
  const server = createServer(app.callback())
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  try {
    const { port } = server.address() as AddressInfo
    await use((path) =>
      sendRaw(port, `GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`),
    )
  } finally {
    await new Promise((resolve) => server.close(resolve))
  }
}

describe('KoaApp: Koa without on-finished and respond', () => {
  it('replaces a handleRequest(ctx, fnMiddleware) that Koa still has', () => {
    const koaOwn = (Koa.prototype as unknown as Record<string, unknown>).handleRequest
    expect(koaOwn, 'Koa renamed handleRequest: revisit koa-app.ts').to.be.a('function')
    expect((koaOwn as (...args: unknown[]) => unknown).length).to.equal(2)
    expect(KoaApp.prototype.handleRequest).to.not.equal(koaOwn)
  })

  it('starts every answer at 404, and an exception that escapes the middleware is still a 500 through ctx.onerror', async () => {
    const app = new KoaApp()
    app.silent = true
    app.use((ctx) => {
      if (ctx.path === '/throw') throw new Error('escaped')
      setJsonAnswer(ctx as AppContext, 200, JSON.stringify({ startedAt: ctx.status }))
      sendAnswer(ctx as AppContext)
    })
    await whileServing(app, async (get) => {
      expect((await get('/')).body).to.equal('{"startedAt":404}')
      expect((await get('/throw')).status).to.equal(500)
    })
  })

  it('the composed app answers every request itself: middleware used after it is never reached', async () => {
    const config = testConfig()
    const app = composeApp(config, await storageFor('in-memory'), config.apiKeys, silentLogger)
    let reached = 0
    app.use(() => {
      reached++
    })
    await whileServing(app, async (get) => {
      expect((await get('/nowhere')).status).to.equal(404)
      expect((await get('/v1/nowhere')).status).to.equal(401)
      expect((await get('/healthz')).status).to.equal(200)
    })
    expect(reached).to.equal(0)
  })
})
