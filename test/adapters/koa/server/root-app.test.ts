import { expect } from 'chai'
import { createServer, type Server } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import Koa from 'koa'
import { Readable } from 'node:stream'
import { createHttpServer, type HttpServer } from '../../../../adapters/koa/index.js'
import { serveAsRoot } from '../../../../adapters/koa/server/root-app.js'
import { composeApp } from '../../../../apps/server/compose.js'
import { silentLogger } from '../../../../core/index.js'
import { storageFor } from '../../../support/backends.js'
import { DEFAULT_LIMITS } from '../../../support/http.js'
import { openRaw, sendRaw, type RawConnection } from '../../../support/raw.js'
import { bothWays, raw, whileServing } from '../../../support/both-ways.js'
import { TEST_KEY, testConfig } from '../../../support/app.js'

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

describe('the server drives the app as its root: answers are sent in one write', () => {
  let http: HttpServer
  let connection: RawConnection
  const counts: WriteCounts = { writes: 0, writevs: 0 }

  before(async () => {
    const config = testConfig()
    const app = composeApp(config, await storageFor('in-memory'), config.apiKeys, silentLogger)
    http = createHttpServer(app, DEFAULT_LIMITS, silentLogger)
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
  /** In order: `answered <path>` when the middleware set the body, its next tick, each write(2). */
  const events: string[] = []
  /** Resolved once both requests have arrived, so that both are answered in the same turn. */
  let bothArrived: () => void = () => undefined
  let arrivals = 0
  const together = new Promise<void>((resolve) => (bothArrived = resolve))

  before(async () => {
    const app = new Koa()
    app.use(async (ctx) => {
      arrivals += 1
      if (arrivals === 2) bothArrived()
      await together
      ctx.body = `"answer ${ctx.path}"`
      events.push(`answered ${ctx.path}`)
      process.nextTick(() => events.push(`next tick after ${ctx.path}`))
    })
    server = createServer(serveAsRoot(app))
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

describe("the root writer sends the same bytes as Koa's respond", () => {
  it('for every kind of body a Koa app can set', async () => {
    const plain = async () => {
      const app = new Koa()
      app.silent = true
      app.use((ctx) => {
        ctx.set('X-Answer', ctx.path)
        if (ctx.path === '/json-text') ctx.body = '{"pet":1}'
        else if (ctx.path === '/typed') {
          ctx.status = 201
          ctx.set('Content-Type', 'application/json')
          ctx.body = '{"pet":1}'
        } else if (ctx.path === '/buffer') ctx.body = Buffer.from('<p>page</p>')
        else if (ctx.path === '/no-content') ctx.status = 204
        else if (ctx.path === '/not-modified') {
          ctx.body = 'gone with 304'
          ctx.status = 304
        } else if (ctx.path === '/null') ctx.body = null
        else if (ctx.path === '/status-only') ctx.status = 418
        else if (ctx.path === '/object') ctx.body = { pets: [1, 2] }
        else if (ctx.path === '/stream') ctx.body = Readable.from(['a', 'b'])
        else if (ctx.path === '/throw') throw new Error('escaped')
        else if (ctx.path === '/http-error') ctx.throw(409, 'taken')
        // Anything else: nothing set, Koa's 404.
      })
      return app
    }
    const paths = ['/json-text', '/typed', '/buffer', '/no-content', '/not-modified', '/null']
    paths.push('/status-only', '/object', '/stream', '/throw', '/http-error', '/nothing')
    const requests = [...paths.map((p) => raw('GET', p)), ...paths.map((p) => raw('HEAD', p))]
    const { viaKoa, viaRoot } = await bothWays(plain, requests)
    expect(viaRoot).to.deep.equal(viaKoa)
    // Not vacuous: the answers to GET differ from one another and carry what was set.
    expect(new Set(viaKoa.slice(0, paths.length)).size).to.equal(paths.length)
    expect(viaKoa[1]).to.match(/^HTTP\/1\.1 201 Created\r\n[^]*\r\n\r\n\{"pet":1\}$/)
  })

  it("for the service's answers: reads, creates, errors, HEAD, the document and the docs page", async () => {
    // Without rate limits: their RateLimit header counts time, which differs from run to run.
    const config = testConfig({ RATE_LIMIT: 'off' })
    const compose = async () =>
      composeApp(config, await storageFor('in-memory'), config.apiKeys, silentLogger)
    const id = 'X-Request-Id: fixed-id'
    const key = `Authorization: Bearer ${TEST_KEY}`
    const pet = '{"name":"Rex","categoryId":7,"status":"available"}'
    const json = ['Content-Type: application/json', `Content-Length: ${pet.length}`]
    const requests = [
      raw('POST', '/v1/pets', [id, key, ...json], pet),
      raw('GET', '/v1/pets?limit=5', [id, key]),
      raw('GET', '/v1/pets/1', [id, key]),
      raw('HEAD', '/v1/pets/1', [id, key]),
      raw('GET', '/v1/pets/99', [id, key]),
      raw('GET', '/v1/pets', [id]),
      raw('POST', '/v1/pets', [id, key, 'Content-Type: text/plain', 'Content-Length: 2'], 'hi'),
      raw('DELETE', '/v1/pets', [id, key]),
      raw('GET', '/v1/nowhere', [id, key]),
      raw('GET', '/elsewhere', [id]),
      raw('GET', '/v1/openapi.json', [id]),
      raw('GET', '/v1/docs', [id]),
      raw('GET', '/healthz', [id]),
    ]
    const { viaKoa, viaRoot } = await bothWays(compose, requests)
    expect(viaRoot).to.deep.equal(viaKoa)
    expect(viaKoa.map((a) => a.slice(9, 12))).to.deep.equal([
      '201',
      '200',
      '200',
      '200',
      '404',
      '401',
      '415',
      '405',
      '404',
      '404',
      '200',
      '200',
      '200',
    ])
  })
})

describe('the exported app is a plain Koa app', () => {
  it("keeps Koa's own request handling and respond: middleware after it is reached when it calls next", async () => {
    const config = testConfig()
    const app = composeApp(config, await storageFor('in-memory'), config.apiKeys, silentLogger)
    expect(Object.getPrototypeOf(app)).to.equal(Koa.prototype)
    const own = (o: object) => (o as { handleRequest?: unknown }).handleRequest
    expect(own(app)).to.be.a('function').and.equal(own(Koa.prototype))
    // Its answers end its chain, as a Koa app's routes do: nothing used after them runs.
    let reached = 0
    app.use(() => void reached++)
    await whileServing(app.callback(), async (port) => {
      expect((await sendRaw(port, raw('GET', '/nowhere'))).status).to.equal(404)
      expect((await sendRaw(port, raw('GET', '/v1/nowhere'))).status).to.equal(401)
    })
    expect(reached).to.equal(0)
  })
})

describe('Expect: 100-continue through createHttpServer', () => {
  const expecting = (port: number) =>
    openRaw(port).then((c) => {
      c.socket.write('POST /v1/pets HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n')
      c.socket.write('Expect: 100-continue\r\nConnection: close\r\n\r\n')
      return c
    })

  it('invites the body at once for a plain listener, as Node does; the app, only when it asks', async () => {
    const config = testConfig()
    const app = composeApp(config, await storageFor('in-memory'), config.apiKeys, silentLogger)
    for (const [given, invited] of [
      [app.callback(), true],
      [app, false],
    ] as const) {
      const http = createHttpServer(given, DEFAULT_LIMITS, silentLogger)
      await new Promise<void>((resolve) => http.server.listen(0, '127.0.0.1', resolve))
      const client = await expecting((http.server.address() as AddressInfo).port)
      await client.closed
      // Anonymous: the app refuses it 401 before reading the body.
      expect(client.received()).to.match(/HTTP\/1\.1 401 /)
      expect(client.received().startsWith('HTTP/1.1 100 Continue\r\n\r\n')).to.equal(invited)
      await new Promise((resolve) => http.server.close(resolve))
    }
  })
})

describe('Expect: 100-continue with the body already sent, and a request pipelined behind it', () => {
  const composed = async () => {
    const config = testConfig()
    return composeApp(config, await storageFor('in-memory'), config.apiKeys, silentLogger)
  }
  /** The status and Connection lines `server` answers to both requests, sent in one packet. */
  const answered = async (server: Server, keyed = true): Promise<string[]> => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const conn = await openRaw((server.address() as AddressInfo).port)
    try {
      const post = request('POST', '/v1/pets', '{"name":"Rex","categoryId":1}')
        .replace('\r\n\r\n', '\r\nExpect: 100-continue\r\n\r\n')
        .replace(keyed ? /^$/ : /Authorization[^\r]*\r\n/, '')
      conn.socket.write(post + request('GET', '/v1/pets?limit=1'))
      await Promise.race([conn.waitFor(/\r\n\r\n\[[^]*\]$/), conn.closed])
      return conn.received().match(/HTTP\/1\.1 \d{3} [^\r]*|\r\nConnection: [^\r]*/gi) ?? []
    } finally {
      conn.socket.destroy()
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    }
  }

  it('is answered 100, 201, 200 on one connection, as plain Node with Koa answers it', async () => {
    const plain = await answered(createServer((await composed()).callback()))
    const ours = await answered(
      createHttpServer(await composed(), DEFAULT_LIMITS, silentLogger).server,
    )
    expect(plain.filter((line) => line.startsWith('HTTP'))).to.deep.equal([
      'HTTP/1.1 100 Continue',
      'HTTP/1.1 201 Created',
      'HTTP/1.1 200 OK',
    ])
    expect(ours).to.deep.equal(plain)
  })

  it('is answered 100 then 401 when the app refuses it, as plain Node with Koa answers it', async () => {
    const plain = await answered(createServer((await composed()).callback()), false)
    const ours = await answered(
      createHttpServer(await composed(), DEFAULT_LIMITS, silentLogger).server,
      false,
    )
    expect(plain.slice(0, 2)).to.deep.equal(['HTTP/1.1 100 Continue', 'HTTP/1.1 401 Unauthorized'])
    expect(ours).to.deep.equal(plain)
  })
})
