import { expect } from 'chai'
import type { AddressInfo, Socket } from 'node:net'
import { createHttpServer, type HttpServer } from '../../../adapters/koa/index.js'
import { composeApp } from '../../../apps/server/compose.js'
import { silentLogger } from '../../../core/index.js'
import { storageFor } from '../../support/backends.js'
import { DEFAULT_LIMITS } from '../../support/http.js'
import { openRaw, type RawConnection } from '../../support/raw.js'
import { TEST_KEY, testConfig } from '../../support/app.js'

/** How the server's side of each connection handed bytes to the kernel. */
type WriteCounts = { writes: number; writevs: number }

/** Counts the socket's write(2) and writev(2) requests, as Node's stream machinery makes them. */
const countWrites = (socket: Socket, counts: WriteCounts): void => {
  const sock = socket as unknown as Record<'_write' | '_writev', (...args: unknown[]) => unknown>
  const write = sock._write.bind(socket)
  const writev = sock._writev.bind(socket)
  sock._write = (...args) => ((counts.writes += 1), write(...args))
  sock._writev = (...args) => ((counts.writevs += 1), writev(...args))
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
    http.server.on('connection', (socket: Socket) => countWrites(socket, counts))
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

  it('leaves HEAD to Koa: the GET headers, Content-Length included, and no body', async () => {
    const before = connection.received().length
    connection.socket.write(request('HEAD', '/v1/pets/1'))
    await connection.waitFor(new RegExp(`[^]{${before}}HTTP/1\\.1 200[^]*\\r\\n\\r\\n$`))
    await new Promise((resolve) => setTimeout(resolve, 50))
    const answer = connection.received().slice(before)
    expect(answer).to.match(/\r\nContent-Length: \d+\r\n/i)
    expect(answer.endsWith('\r\n\r\n')).to.equal(true)
  })
})
