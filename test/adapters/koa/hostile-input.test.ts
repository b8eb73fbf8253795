import { expect } from 'chai'
import { ERROR_CODES } from '../../../adapters/koa/index.js'
import { startTestApi, TEST_KEY, type TestApi } from '../../support/app.js'
import { sendRaw, type RawReply } from '../../support/raw.js'

const request = (line: string, headers: string[] = [], body = '') =>
  [
    line,
    'Host: localhost',
    `Authorization: Bearer ${TEST_KEY}`,
    'Connection: close',
    ...headers,
    '',
    body,
  ].join('\r\n')

/** Each row: a hostile request, and the clean 4xx Error it must get. Never a 500, a hang or a crash. */
const cases: Array<[string, string | Buffer, number]> = [
  ['oversized headers', request('GET /v1/pets HTTP/1.1', [`X-Big: ${'a'.repeat(20_000)}`]), 431],
  [
    'a huge Authorization header',
    request('GET /v1/pets HTTP/1.1', [`Authorization: Bearer ${'k'.repeat(30_000)}`]),
    431,
  ],
  [
    'a long but legal Authorization header',
    request('GET /v1/pets HTTP/1.1').replace(`Bearer ${TEST_KEY}`, `Bearer ${'k'.repeat(9000)}`),
    401,
  ],
  ['a very long URL', request(`GET /v1/pets?status=${'x'.repeat(40_000)} HTTP/1.1`), 431],
  ['a NUL byte in the path', request('GET /v1/pets\u0000 HTTP/1.1'), 400],
  ['a NUL byte in a header', request('GET /v1/pets HTTP/1.1', ['X-Evil: a\u0000b']), 400],
  ['a malformed request line', 'GARBAGE\r\n\r\n', 400],
  [
    'an invalid Content-Length',
    request('POST /v1/pets HTTP/1.1', ['Content-Type: application/json', 'Content-Length: abc']),
    400,
  ],
  ['invalid UTF-8 percent-encoding in the path', request('GET /v1/pets/%ff%fe HTTP/1.1'), 400],
  ['a percent-encoded NUL as petId', request('GET /v1/pets/1%00 HTTP/1.1'), 400],
  ['bad percent-encoding in the path', request('GET /v1/pets/%zz HTTP/1.1'), 400],
  ['bad percent-encoding outside the routes', request('GET /v1/%ff%fe/x HTTP/1.1'), 404],
  ['invalid UTF-8 in a query value', request('GET /v1/pets?status=%ff HTTP/1.1'), 400],
  ['invalid UTF-8 in a query name', request('GET /v1/pets?%ff=1 HTTP/1.1'), 400],
  ['a NUL in a query value', request('GET /v1/pets?limit=5%00 HTTP/1.1'), 400],
  ['an operator smuggled as status[$ne]', request('GET /v1/pets?status[$ne]=sold HTTP/1.1'), 400],
  [
    'an operator smuggled as status[]',
    request('GET /v1/pets?status[]=sold&status[]=pending HTTP/1.1'),
    400,
  ],
  [
    'an operator object as categoryId',
    request(
      'POST /v1/pets HTTP/1.1',
      ['Content-Type: application/json', 'Content-Length: 40'],
      '{"name":"x","categoryId":{"$gt":0}}     ',
    ),
    400,
  ],
  [
    'an operator object as name',
    request(
      'POST /v1/pets HTTP/1.1',
      ['Content-Type: application/json', 'Content-Length: 38'],
      '{"name":{"$ne":null},"categoryId":1}  ',
    ),
    400,
  ],
  [
    'a NUL in the name',
    request(
      'POST /v1/pets HTTP/1.1',
      ['Content-Type: application/json', 'Content-Length: 35'],
      '{"name":"a\\u0000b","categoryId":1}',
    ),
    400,
  ],
  [
    'a thousand query parameters',
    request(`GET /v1/pets?${Array.from({ length: 1500 }, (_, i) => `p${i}=1`).join('&')} HTTP/1.1`),
    400,
  ],
  [
    'deeply nested JSON',
    request(
      'POST /v1/pets HTTP/1.1',
      ['Content-Type: application/json', 'Content-Length: 8000'],
      '['.repeat(8000),
    ),
    400,
  ],
]

describe('HTTP: hostile input', () => {
  let api: TestApi
  before(async () => (api = await startTestApi()))
  after(() => api.close())

  const expectCleanError = (reply: RawReply, status: number) => {
    expect(reply.status).to.equal(status)
    expect(reply.head).to.match(/content-type: application\/json/i)
    const body = JSON.parse(reply.body) as {
      code: keyof typeof ERROR_CODES
      status: number
      message: string
    }
    expect(body.status).to.equal(status)
    expect(ERROR_CODES[body.code]).to.equal(status)
    expect(body.message).to.not.match(/at .*\.(ts|js):\d+/)
  }

  for (const [label, bytes, status] of cases) {
    it(`answers ${status} to ${label}`, async () => {
      expectCleanError(await sendRaw(api.port, bytes), status)
    })
  }

  it('is still serving after all of them', async () => {
    expect((await api.get('/pets')).status).to.equal(200)
  })
})
