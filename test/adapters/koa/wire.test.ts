import { expect } from 'chai'
import * as TE from 'fp-ts/lib/TaskEither.js'
import { identifiersExhausted } from '../../../core/index.js'
import { ERROR_CODES } from '../../../adapters/koa/index.js'
import { createInMemoryPetStore } from '../../../adapters/in-memory/index.js'
import { inMemoryStorage, processLocalStorage } from '../../../apps/server/storage.js'
import { auth, startTestApi, TEST_KEY, type TestApi } from '../../support/app.js'
import { openRaw, sendRaw, type RawReply } from '../../support/raw.js'

const AUTH = `Authorization: Bearer ${TEST_KEY}`
const BODY = '{"name":"Rex","categoryId":1}'
const post = (headers: string[], body = BODY) =>
  [
    'POST /v1/pets HTTP/1.1',
    'Host: localhost',
    'Content-Type: application/json',
    `Content-Length: ${Buffer.byteLength(body)}`,
    ...headers,
    '',
    body,
  ].join('\r\n')

const expectError = (reply: RawReply, status: number, code: string) => {
  expect(reply.status, reply.head).to.equal(status)
  expect(reply.head).to.match(/content-type: application\/json/i)
  expect(JSON.parse(reply.body)).to.deep.equal({
    ...JSON.parse(reply.body),
    code,
    status: ERROR_CODES[code as keyof typeof ERROR_CODES],
  })
}

describe('HTTP: wire-level refusals', () => {
  let api: TestApi
  before(async () => (api = await startTestApi()))
  after(() => api.close())

  it('answers a request without Host, or with two, or with two Authorization or Content-Type, 400 with the Error body', async () => {
    const missing = await sendRaw(api.port, `GET /healthz HTTP/1.1\r\nConnection: close\r\n\r\n`)
    expectError(missing, 400, 'bad_request')
    const twice = await sendRaw(
      api.port,
      'GET /healthz HTTP/1.1\r\nHost: a\r\nHost: b\r\nConnection: close\r\n\r\n',
    )
    expectError(twice, 400, 'bad_request')
    expect(twice.head).to.match(/connection: close/i)
    const twoKeys = await sendRaw(
      api.port,
      `GET /v1/pets HTTP/1.1\r\nHost: a\r\n${AUTH}\r\nauthorization: Bearer other\r\n\r\n`,
    )
    expectError(twoKeys, 400, 'bad_request')
    expect(JSON.parse(twoKeys.body)).to.include({
      message: 'the request must carry at most one Authorization header',
    })
    // Node would keep the first Content-Type: the body would be read by the order of the lines.
    // post() sends application/json; each of these is a second one.
    for (const second of ['Content-Type: text/plain', 'CONTENT-TYPE: application/json']) {
      const twoTypes = await sendRaw(api.port, post([AUTH, second]))
      expectError(twoTypes, 400, 'bad_request')
      expect(JSON.parse(twoTypes.body), second).to.include({
        message: 'the request must carry at most one Content-Type header',
      })
    }
    // HTTP/1.0 predates Host: it may leave it out.
    const old = await sendRaw(api.port, 'GET /healthz HTTP/1.0\r\n\r\n')
    expect(old.status).to.equal(200)
  })

  it('sees every header, the 1,100th as well as the first (a second Host or Authorization is 400)', async () => {
    const filler = Array.from({ length: 1100 }, (_, i) => `X-${i}: a`).join('\r\n')
    for (const second of ['Host: b', 'Authorization: Bearer other']) {
      const reply = await sendRaw(
        api.port,
        `GET /v1/pets HTTP/1.1\r\nHost: a\r\n${AUTH}\r\n${filler}\r\n${second}\r\n\r\n`,
      )
      expectError(reply, 400, 'bad_request')
    }
  })

  it('answers a Host that is not a host and optional port 400, and serves every valid form', async () => {
    const hostIs = (value: string) =>
      sendRaw(api.port, `GET /healthz HTTP/1.1\r\nHost: ${value}\r\nConnection: close\r\n\r\n`)
    for (const bad of ['a, b', 'a b', 'a/b', 'a@b', 'a:b:c', 'a:8x', '[::1', 'a%zz', 'a?b']) {
      const reply = await hostIs(bad)
      expectError(reply, 400, 'bad_request')
      expect(JSON.parse(reply.body), bad).to.include({
        message: 'the Host header must be a host and optional port',
      })
    }
    // An empty value is what RFC 9112 asks of a target without an authority; an empty port is
    // allowed by RFC 3986.
    for (const good of [
      'localhost',
      'localhost:8080',
      'a.example:',
      '127.0.0.1:1',
      '[::1]:80',
      'a%41,b!',
      '',
    ])
      expect((await hostIs(good)).status, good).to.equal(200)
  })

  it('answers a Host whose port is over 65535, or whose brackets hold no IP address, 400', async () => {
    const hostIs = (value: string) =>
      sendRaw(api.port, `GET /healthz HTTP/1.1\r\nHost: ${value}\r\nConnection: close\r\n\r\n`)
    for (const bad of [
      'a:99999999',
      'a:65536',
      '127.0.0.1:70000',
      '[::1]:65536',
      '[zz]',
      '[1::2::3]',
      '[127.0.0.1]',
      '[v1.]',
      '[vx.a]',
      '[v1a]',
    ]) {
      const reply = await hostIs(bad)
      expectError(reply, 400, 'bad_request')
      expect(JSON.parse(reply.body), bad).to.include({
        message: 'the Host header must be a host and optional port',
      })
    }
    // Leading zeros do not change a port's value; "v" and hex digits are in any case (RFC 5234).
    for (const good of [
      'a:65535',
      'a:0',
      'a:00080',
      'a:',
      '127.0.0.1:65535',
      '[::1]',
      '[::1]:8080',
      '[::ffff:127.0.0.1]:65535',
      '[v1.a:b]',
      "[VfF.x!$&'()*+,;=_~-]",
    ])
      expect((await hostIs(good)).status, good).to.equal(200)
  })

  it('answers a request of a version other than HTTP/1.1 or 1.0 400 bad_request, and closes', async () => {
    for (const line of ['GET /healthz HTTP/2.0', 'GET /healthz HTTP/0.9', 'CONNECT a:1 HTTP/2.0']) {
      const reply = await sendRaw(api.port, `${line}\r\nHost: a\r\nX-Request-Id: old\r\n\r\n`)
      expectError(reply, 400, 'bad_request')
      expect(JSON.parse(reply.body), line).to.include({
        message: 'the request must be HTTP/1.1 or HTTP/1.0',
      })
      expect(reply.head, line).to.match(/\r\nDate: /)
      expect(reply.head, line).to.include('\r\nX-Request-Id: old\r\n')
      expect(reply.head, line).to.match(/connection: close/i)
    }
    // Node's parser refuses these itself.
    for (const line of ['GET /healthz HTTP/1.2', 'GET /healthz HTTP/3.0'])
      expectError(await sendRaw(api.port, `${line}\r\nHost: a\r\n\r\n`), 400, 'bad_request')
    // Neither the declared body nor a create pipelined behind keeps the connection or is used.
    const conn = await openRaw(api.port)
    const name = 'behind-http-2'
    conn.socket.write(
      'POST /v1/pets HTTP/2.0\r\nHost: x\r\nConnection: keep-alive\r\nContent-Length: 4\r\n\r\n{"na' +
        post([AUTH], `{"name":"${name}","categoryId":1}`),
    )
    await conn.closed
    expect(conn.received().match(/HTTP\/1\.1 \d{3} /g), conn.received()).to.have.length(1)
    expect(conn.received()).to.match(/^HTTP\/1\.1 400 /)
    const listed = await api.request({ path: '/v1/pets?limit=100', headers: auth })
    expect(listed.text).not.to.include(name)
    const unsent = await openRaw(api.port)
    unsent.socket.write(
      'POST /v1/pets HTTP/2.0\r\nHost: x\r\nContent-Length: 100000000\r\n\r\n{"na',
    )
    await unsent.closed
    expect(unsent.received()).to.match(/^HTTP\/1\.1 400 /)
  })

  it("answers a method Node's parser does not know 400 bad_request, a key or not", async () => {
    for (const method of ['BREW', 'get', 'Post']) {
      const reply = await sendRaw(
        api.port,
        `${method} /v1/pets HTTP/1.1\r\nHost: localhost\r\n${AUTH}\r\n\r\n`,
      )
      expectError(reply, 400, 'bad_request')
      expect(reply.head, method).to.match(/connection: close/i)
    }
  })

  it('answers an unknown Expect 417 expectation_failed with the Error body', async () => {
    const idOf = async () =>
      ((await api.createPet({ name: 'a', categoryId: 1 })).json as { id: bigint }).id
    const before = await idOf()
    // Node itself takes the last five for 100-continue, the word being in them.
    for (const expectation of [
      'something-else',
      '100-continuex',
      '100-continue-x',
      'foo, 100-continue',
      '100-continue, foo',
      '100-continue;a=b',
      '100-continue, 100-continue',
    ]) {
      const reply = await sendRaw(api.port, post([AUTH, `Expect: ${expectation}`]))
      expectError(reply, 417, 'expectation_failed')
    }
    expect(await idOf(), 'nothing stored in between').to.equal(before + 1n)
  })

  it('refuses any Content-Encoding other than identity with 415', async () => {
    for (const encoding of ['gzip', 'br', 'deflate', 'identity, gzip']) {
      const reply = await sendRaw(api.port, post([AUTH, `Content-Encoding: ${encoding}`]))
      expectError(reply, 415, 'unsupported_media_type')
    }
    const plain = await sendRaw(api.port, post([AUTH, 'Content-Encoding: identity']))
    expect(plain.status).to.equal(201)
  })

  it('sends 100 Continue only after the key, the media type and the declared size are accepted', async () => {
    const head = (headers: string[], length: number, type = 'application/json') =>
      [
        'POST /v1/pets HTTP/1.1',
        'Host: localhost',
        `Content-Type: ${type}`,
        `Content-Length: ${length}`,
        'Expect: 100-continue',
        ...headers,
        '',
        '',
      ].join('\r\n')
    const anonymous = await openRaw(api.port)
    anonymous.socket.write(head([], BODY.length))
    await anonymous.closed
    expect(anonymous.received()).to.match(/^HTTP\/1\.1 401 /)
    expect(anonymous.received()).to.not.include('100 Continue')

    const tooLarge = await openRaw(api.port)
    tooLarge.socket.write(head([AUTH], 100_000_000))
    await tooLarge.closed
    expect(tooLarge.received()).to.match(/^HTTP\/1\.1 413 /)
    expect(tooLarge.received()).to.not.include('100 Continue')

    const wrongType = await openRaw(api.port)
    wrongType.socket.write(head([AUTH], BODY.length, 'text/plain'))
    await wrongType.closed
    expect(wrongType.received()).to.match(/^HTTP\/1\.1 415 /)
    expect(wrongType.received()).to.include('"code":"unsupported_media_type"')
    expect(wrongType.received()).to.not.include('100 Continue')

    const good = await openRaw(api.port)
    good.socket.write(head([AUTH, 'Connection: close'], BODY.length))
    await good.waitFor(/^HTTP\/1\.1 100 Continue\r\n\r\n$/)
    good.socket.write(BODY)
    await good.closed
    expect(good.received()).to.match(/HTTP\/1\.1 201 /)
  })

  it('closes the connection on an early refusal instead of reading the declared body', async () => {
    for (const [line, status] of [
      ['POST /v1/pets HTTP/1.1', 401],
      ['POST /v1/nowhere HTTP/1.1', 401],
    ] as const) {
      const conn = await openRaw(api.port)
      // 100 MB declared, none of it sent: the server must answer and close, not wait for it.
      conn.socket.write(`${line}\r\nHost: x\r\nContent-Length: 100000000\r\n\r\n{"na`)
      await conn.closed
      expect(conn.received()).to.match(new RegExp(`^HTTP/1\\.1 ${status} `))
      expect(conn.received()).to.match(/connection: close/i)
    }
    for (const [line, status] of [
      ['POST /v1/nowhere HTTP/1.1', 404],
      ['PUT /v1/pets HTTP/1.1', 405],
    ] as const) {
      const conn = await openRaw(api.port)
      conn.socket.write(`${line}\r\nHost: x\r\n${AUTH}\r\nContent-Length: 100000000\r\n\r\n{"na`)
      await conn.closed
      expect(conn.received()).to.match(new RegExp(`^HTTP/1\\.1 ${status} `))
      expect(conn.received()).to.match(/connection: close/i)
    }
    for (const [headers, status] of [
      [[AUTH, 'Content-Type: text/plain'], 415],
      [[AUTH, 'Content-Type: application/json', 'Content-Length: 100000000'], 413],
    ] as const) {
      const conn = await openRaw(api.port)
      const extra = headers.some((h) => h.startsWith('Content-Length'))
        ? []
        : ['Content-Length: 9000000']
      conn.socket.write(
        ['POST /v1/pets HTTP/1.1', 'Host: x', ...headers, ...extra, '', '{"na'].join('\r\n'),
      )
      await conn.closed
      expect(conn.received()).to.match(new RegExp(`^HTTP/1\\.1 ${status} `))
      expect(conn.received().match(/HTTP\/1\.1 /g)).to.have.length(1)
    }
  })

  it('answers a request pipelined ahead of unreadable bytes, then refuses those and closes', async () => {
    const ahead = (name: string) =>
      post([AUTH, `X-Request-Id: ahead-${name}`], `{"name":"${name}","categoryId":1}`)
    for (const [name, next, status] of [
      ['garbage', 'GARBAGE\r\n\r\n', 400],
      ['header', `GET /v1/pets HTTP/1.1\r\nHost: x\r\nX-Big: ${'b'.repeat(20_000)}\r\n\r\n`, 431],
      ['nul', 'GET /v1/pets HTTP/1.1\r\nHost: x\r\nX-Evil: a\u0000b\r\n\r\n', 400],
    ] as const) {
      const conn = await openRaw(api.port)
      conn.socket.write(ahead(name) + next)
      await conn.closed
      const answers = [...conn.received().matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => m[1])
      expect(answers, name).to.deep.equal(['201', String(status)])
      expect(conn.received()).to.include(`X-Request-Id: ahead-${name}\r\n`)
      expect(conn.received()).to.include(`"name":"${name}"`)
    }
  })

  it('answers every request pipelined ahead of unreadable bytes or a CONNECT, then refuses', async () => {
    for (const [next, status] of [
      ['GARBAGE\r\n\r\n', 400],
      ['CONNECT a:1 HTTP/1.1\r\nHost: x\r\n\r\n', 501],
    ] as const) {
      const names = [1, 2, 3].map((i) => `ahead-of-${status}-${i}`)
      const conn = await openRaw(api.port)
      conn.socket.write(
        names.map((n) => post([AUTH], `{"name":"${n}","categoryId":1}`)).join('') + next,
      )
      await conn.closed
      const answers = [...conn.received().matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => m[1])
      expect(answers, next).to.deep.equal(['201', '201', '201', String(status)])
      for (const name of names) expect(conn.received()).to.include(`"name":"${name}"`)
    }
  })

  it('gives refusals made outside the app a Date and an X-Request-Id', async () => {
    const unreadable = await sendRaw(api.port, 'GARBAGE\r\n\r\n')
    expectError(unreadable, 400, 'bad_request')
    expect(unreadable.head).to.match(/\r\nDate: \w{3}, \d{2} \w{3} \d{4} [\d:]{8} GMT\r\n/)
    expect(unreadable.head).to.match(/\r\nX-Request-Id: [0-9a-f-]{36}\r\n/)
    for (const refused of [
      post([AUTH, 'Expect: something-else', 'X-Request-Id: mine-417']),
      'GET /healthz HTTP/1.1\r\nHost: a\r\nHost: b\r\nX-Request-Id: mine-417\r\n\r\n',
    ]) {
      const reply = await sendRaw(api.port, refused)
      expect(reply.head).to.match(/\r\nDate: /)
      expect(reply.head).to.include('\r\nX-Request-Id: mine-417\r\n')
    }
  })

  it('answers CONNECT 501 not_implemented, whatever its target, and closes', async () => {
    for (const target of ['/v1/pets', '127.0.0.1:22']) {
      const reply = await sendRaw(
        api.port,
        `CONNECT ${target} HTTP/1.1\r\nHost: a\r\n${AUTH}\r\nX-Request-Id: tunnel\r\n\r\n`,
      )
      expectError(reply, 501, 'not_implemented')
      expect(reply.head).to.include('\r\nX-Request-Id: tunnel\r\n')
    }
  })

  it('stays up when a CONNECT is reset before its refusal is written', async () => {
    for (let i = 0; i < 50; i++) {
      const conn = await openRaw(api.port)
      conn.socket.write('CONNECT a:1 HTTP/1.1\r\nHost: a\r\n\r\n')
      conn.socket.resetAndDestroy()
      await conn.closed
    }
    await new Promise((r) => setTimeout(r, 100)) // the refusals' writes fail by now
    expect((await api.request({ path: '/healthz' })).status).to.equal(200)
  })

  it('carries out nothing pipelined behind an answer that says Connection: close', async () => {
    const refusals = [
      post([AUTH, 'Transfer-Encoding: identity, chunked'], ''),
      post([AUTH, 'Expect: foo']),
      post([AUTH, 'Connection: close']),
    ]
    for (const [i, refusal] of refusals.entries()) {
      const name = `behind-close-${i}`
      const conn = await openRaw(api.port)
      conn.socket.write(refusal + post([AUTH], `{"name":"${name}","categoryId":1}`))
      await conn.closed
      expect(conn.received().match(/HTTP\/1\.1 /g), conn.received()).to.have.length(1)
      expect(conn.received()).to.match(/connection: close/i)
      const listed = await api.request({ path: '/v1/pets?limit=100', headers: auth })
      expect(listed.text, refusal).not.to.include(name)
    }
  })

  it('carries out nothing pipelined behind a 417 that waits for the answer ahead of it', async () => {
    const conn = await openRaw(api.port)
    const list = `GET /v1/pets HTTP/1.1\r\nHost: localhost\r\n${AUTH}\r\n\r\n`
    const refused = 'GET /healthz HTTP/1.1\r\nHost: localhost\r\nExpect: foo\r\n\r\n'
    conn.socket.write(list + refused + post([AUTH], '{"name":"behind-417","categoryId":1}'))
    await conn.closed
    const answers = [...conn.received().matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => m[1])
    expect(answers).to.deep.equal(['200', '417'])
    const listed = await api.request({ path: '/v1/pets?limit=100', headers: auth })
    expect(listed.text).not.to.include('behind-417')
  })

  it('refuses a transfer coding other than chunked with 501, the body unread', async () => {
    const chunked = (codings: string) =>
      [
        'POST /v1/pets HTTP/1.1',
        'Host: localhost',
        AUTH,
        'Content-Type: application/json',
        `Transfer-Encoding: ${codings}`,
        '',
        `${BODY.length.toString(16)}\r\n${BODY}\r\n0\r\n\r\n`,
      ].join('\r\n')
    for (const codings of ['gzip, chunked', 'deflate, chunked']) {
      const reply = await sendRaw(api.port, chunked(codings))
      expectError(reply, 501, 'not_implemented')
      expect(reply.head).to.match(/connection: close/i)
    }
    for (const codings of ['chunked', 'Chunked']) {
      const reply = await sendRaw(api.port, chunked(codings))
      expect(reply.status, codings).to.equal(201)
    }
  })

  it('treats duplicate keys as invalid JSON whatever their values', async () => {
    for (const body of [
      '{"name":"Rex","name":"Rex","categoryId":1}',
      '{"name":"Rex","categoryId":1,"categoryId":1}',
      '{"name":"Rex","categoryId":1,"status":"sold","status":"sold"}',
      '{"name":"Rex","n\\u0061me":"Rex","categoryId":1}',
      '{"name":"Rex","categoryId":1,"x":{"a":1,"a":1}}',
    ]) {
      const reply = await api.createPet(body)
      expect(reply.status, body).to.equal(400)
      expect(reply.json).to.include({ code: 'invalid_json' })
    }
    // The same key in two different objects is not a duplicate (refused for the extra field only).
    const nested = await api.createPet('{"name":"Rex","categoryId":1,"x":[{"a":1},{"a":1}]}')
    expect(nested.json).to.include({ code: 'invalid_request' })
  })

  it('never drops a query parameter: past 1,000 pairs the filter still applies', async () => {
    await api.createPet({ name: 'a', categoryId: 1n, status: 'available' })
    await api.createPet({ name: 's', categoryId: 1n, status: 'sold' })
    const filtered = await api.get(`/pets?${'&'.repeat(3000)}status=sold`)
    expect(filtered.status).to.equal(200)
    expect((filtered.json as Array<{ status: string }>).map((p) => p.status)).to.deep.equal([
      'sold',
    ])
    const many = await api.get(`/pets?${'limit=5&'.repeat(1200)}`)
    expect(many.status).to.equal(400)
    const unknown = await api.get(`/pets?${'a=1&'.repeat(1100)}`.replace(/&$/, '') + '&zz=1')
    expect(unknown.status).to.equal(400)
    expect(String((unknown.json as { message: string }).message)).to.include('zz')
  })

  it('echoes an X-Request-Id of 1 to 128 allowed characters, and replaces a longer one', async () => {
    const id = (value: string) =>
      api
        .request({ path: '/healthz', headers: { 'X-Request-Id': value } })
        .then((r) => r.headers['x-request-id'])
    expect(await id('a'.repeat(128))).to.equal('a'.repeat(128))
    expect(await id('a'.repeat(129))).to.match(/^[0-9a-f-]{36}$/)
    expect(await id('Az09._:-')).to.equal('Az09._:-')
  })

  it('accepts limit with leading zeros, up to 20 digits', async () => {
    const one = await api.get('/pets?limit=0001')
    expect(one.status).to.equal(200)
    expect(one.json as unknown[]).to.have.length(1)
    expect((await api.get(`/pets?limit=${'0'.repeat(18)}20`)).status).to.equal(200)
    expect((await api.get(`/pets?limit=${'0'.repeat(19)}20`)).status).to.equal(400)
    expect((await api.get('/pets?limit=0000')).status).to.equal(400)
  })

  it('accepts an id (petId, after) with leading zeros, up to 40 digits', async () => {
    const first = await api.createPet({ name: 'a', categoryId: 1 })
    const id = String((first.json as { id: bigint }).id)
    const padded = (digits: number) => `${'0'.repeat(digits - id.length)}${id}`
    const got = await api.get(`/pets/${padded(40)}`)
    expect(got.status).to.equal(200)
    expect(got.json).to.deep.equal(first.json)
    expect((await api.get(`/pets?after=${padded(40)}`)).status).to.equal(200)
    for (const tooLong of [`/pets/${padded(41)}`, `/pets?after=${padded(41)}`]) {
      const refused = await api.get(tooLong)
      expect(refused.status, tooLong).to.equal(400)
      expect(refused.text, tooLong).to.include('digits only, at most 40 of them')
    }
  })
})

describe('HTTP: in-memory store capacity', () => {
  it('answers 507 insufficient_storage once MAX_PETS pets are stored', async () => {
    const api = await startTestApi({ storage: inMemoryStorage(2) })
    try {
      expect((await api.createPet({ name: 'a', categoryId: 1n })).status).to.equal(201)
      expect((await api.createPet({ name: 'b', categoryId: 1n })).status).to.equal(201)
      const full = await api.createPet({ name: 'c', categoryId: 1n })
      expect(full.status).to.equal(507)
      expect(full.json).to.deep.equal({
        code: 'insufficient_storage',
        message: 'the store is full (2 pets): nothing more can be created',
        status: 507n,
      })
      expect((await api.get('/pets')).json as unknown[]).to.have.length(2)
      // A keyed create refused 507 leaves no record of its key: another body under it is not
      // 422 (a stream of such keys would each have been kept for a day).
      const keyed = (name: string) =>
        api.request({
          method: 'POST',
          path: '/v1/pets',
          headers: { ...auth, 'Content-Type': 'application/json', 'Idempotency-Key': 'q' },
          body: `{"name":"${name}","categoryId":1}`,
        })
      expect((await keyed('d')).status).to.equal(507)
      expect((await keyed('e')).status).to.equal(507)
    } finally {
      await api.close()
    }
  })

  it('answers 507 insufficient_storage to a new Idempotency-Key once the key store is full', async () => {
    const storage = processLocalStorage(createInMemoryPetStore({ capacity: 10 }), 1)
    const api = await startTestApi({ storage })
    const keyed = (key: string) =>
      api.request({
        method: 'POST',
        path: '/v1/pets',
        headers: { ...auth, 'Content-Type': 'application/json', 'Idempotency-Key': key },
        body: '{"name":"Rex","categoryId":1}',
      })
    try {
      expect((await keyed('first')).status).to.equal(201)
      const refused = await keyed('second')
      expect(refused.json).to.deep.equal({
        code: 'insufficient_storage',
        message:
          'the store holds as many Idempotency-Keys as it may (1): a create with a new key is refused until older keys expire; a create without a key is not affected',
        status: 507n,
      })
      // The key held is still replayed, and a create without a key is not affected.
      const replayed = await keyed('first')
      expect(replayed.headers['idempotent-replayed']).to.equal('true')
      expect((await api.createPet({ name: 'b', categoryId: 1n })).status).to.equal(201)
    } finally {
      await api.close()
    }
  })

  it('answers 507, not a retryable 503, once no pet identifier is left', async () => {
    const storage = inMemoryStorage()
    const api = await startTestApi({
      storage: {
        ...storage,
        store: { ...storage.store, insertPet: () => TE.left(identifiersExhausted) },
      },
    })
    try {
      const spent = await api.createPet({ name: 'a', categoryId: 1n })
      expect(spent.status).to.equal(507)
      expect(spent.headers['retry-after']).to.equal(undefined)
      expect(spent.json).to.deep.equal({
        code: 'insufficient_storage',
        message:
          'every pet identifier up to 9223372036854775807 is used or passed: nothing more can be created',
        status: 507n,
      })
    } finally {
      await api.close()
    }
  })
})
