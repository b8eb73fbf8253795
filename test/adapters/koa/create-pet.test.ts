import { connect } from 'node:net'
import { expect } from 'chai'
import fc from 'fast-check'
import { stringify } from 'lossless-json'
import { INT64_MAX, PET_NAME_MAX_LENGTH } from '../../../core/index.js'
import {
  invalidCategoryId,
  invalidPetName,
  invalidStatus,
  newPet,
} from '../../../adapters/testing/arbitraries.js'
import { auth, startTestApi, type TestApi } from '../../support/app.js'
import { expectError } from '../../support/expect-error.js'
import { forEachBackend } from '../../support/backends.js'

/** Writes a request in pieces, `gapMs` apart, and resolves with the raw answer. */
const sendInPieces = (port: number, pieces: ReadonlyArray<string>, gapMs: number) =>
  new Promise<string>((resolve, reject) => {
    const socket = connect(port, '127.0.0.1')
    let answer = ''
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString('utf8')))
    socket.on('error', reject)
    socket.on('close', () => resolve(answer))
    const next = (i: number) => {
      if (i === pieces.length) return
      socket.write(pieces[i] as string)
      setTimeout(() => next(i + 1), gapMs)
    }
    next(0)
  })

forEachBackend('HTTP: POST /pets', (backend) => {
  let api: TestApi
  beforeEach(async () => (api = await startTestApi({ backend })))
  afterEach(() => api.close())

  const post = (body: string | Buffer, contentType?: string) =>
    api.request({
      method: 'POST',
      path: '/v1/pets',
      headers: contentType === undefined ? auth : { ...auth, 'Content-Type': contentType },
      body,
    })

  it('creates a pet: 201, the Pet with its id, and Location', async () => {
    const reply = await api.createPet({ name: 'Rex', categoryId: 7n, status: 'available' })
    expect(reply.status).to.equal(201)
    expect(reply.headers['content-type']).to.equal('application/json')
    expect(reply.json).to.deep.equal({ id: 1n, name: 'Rex', categoryId: 7n, status: 'available' })
    expect(reply.headers.location).to.equal('/v1/pets/1')
    expect(
      (await api.request({ path: reply.headers.location as string, headers: auth })).json,
    ).to.deep.equal(reply.json)
  })

  it('keeps a pet created without status without one', async () => {
    const reply = await api.createPet({ name: 'Tom', categoryId: 1n })
    expect(reply.json).to.deep.equal({ id: 1n, name: 'Tom', categoryId: 1n })
    expect(reply.text).to.not.include('status')
  })

  it('stores categoryId exactly over the whole int64 range', async () => {
    for (const categoryId of [INT64_MAX, 2n ** 53n + 1n, 9007199254740993n, 1n]) {
      const reply = await post(`{"name":"n","categoryId":${categoryId}}`, 'application/json')
      expect(reply.text).to.include(`"categoryId":${categoryId}`)
      const id = (reply.json as { id: bigint }).id
      expect((await api.get(`/pets/${id}`)).text).to.include(`"categoryId":${categoryId}`)
    }
  })

  it('round-trips any valid NewPet exactly (property)', async () => {
    await fc.assert(
      fc.asyncProperty(newPet(), async (pet) => {
        const created = await api.createPet(pet)
        expect(created.status).to.equal(201)
        const { id, ...rest } = created.json as Record<string, unknown>
        expect(rest).to.deep.equal(pet)
        expect((await api.get(`/pets/${id}`)).json).to.deep.equal(created.json)
      }),
      { numRuns: 60 },
    )
  })

  it('accepts every integer-valued number form, as JSON Schema does, converted exactly', async () => {
    for (const [literal, expected] of [
      ['1.0', '1'],
      ['1e3', '1000'],
      ['1E2', '100'],
      ['40335.0', '40335'],
      ['9.223372036854775807e18', '9223372036854775807'],
      ['922337203685477580.70e1', '9223372036854775807'],
    ]) {
      const created = await post(`{"name":"n","categoryId":${literal}}`, 'application/json')
      expect(created.status, literal).to.equal(201)
      expect(created.text, literal).to.contain(`"categoryId":${expected}}`)
    }
  })

  it('refuses categoryId values that are not integers from 1 to 2^63-1', async () => {
    for (const literal of [
      '0',
      '-1',
      '-0',
      '0.0',
      '-1.0',
      '1.5',
      '1e-3',
      '10.01e1',
      '9.223372036854775808e18',
      '1e19',
      '1e400',
      '"5"',
      '9223372036854775808',
      '18446744073709551616',
      'null',
      'true',
      '[]',
      '{}',
    ]) {
      expectError(
        await post(`{"name":"n","categoryId":${literal}}`, 'application/json'),
        400,
        'invalid_request',
        'categoryId',
      )
    }
  })

  it('refuses invalid values with a message naming the field (property)', async () => {
    const cases = fc.oneof(
      invalidPetName().map((name) => ({ field: 'name', body: { name, categoryId: 1n } })),
      invalidCategoryId()
        // 2^53 is refused from an embedder as a (rounded) number, but as a JSON literal it is exact.
        .filter((v) => !(typeof v === 'number' && Number.isInteger(v) && v >= 1))
        .map((categoryId) => ({ field: 'categoryId', body: { name: 'n', categoryId } })),
      invalidStatus().map((status) => ({
        field: 'status',
        body: { name: 'n', categoryId: 1n, status },
      })),
    )
    await fc.assert(
      fc.asyncProperty(cases, async ({ field, body }) => {
        expectError(
          await post(stringify(body) as string, 'application/json'),
          400,
          'invalid_request',
          field,
        )
      }),
      { numRuns: 80 },
    )
  })

  it('requires name and categoryId', async () => {
    const reply = await post('{}', 'application/json')
    expectError(reply, 400, 'invalid_request', 'name is required')
    expect((reply.json as { message: string }).message).to.include('categoryId is required')
    expectError(
      await post('{"name":"x"}', 'application/json'),
      400,
      'invalid_request',
      'categoryId is required',
    )
    expectError(
      await post('{"categoryId":1}', 'application/json'),
      400,
      'invalid_request',
      'name is required',
    )
  })

  it('refuses unknown fields, id among them, naming them', async () => {
    expectError(
      await post('{"id":5,"name":"x","categoryId":1}', 'application/json'),
      400,
      'invalid_request',
      'id is not a known field',
    )
    expectError(
      await post('{"name":"x","categoryId":1,"colour":"red"}', 'application/json'),
      400,
      'invalid_request',
      'colour',
    )
    expectError(
      await post('{"name":"x","categoryId":1,"__proto__":{"status":"sold"}}', 'application/json'),
      400,
      'invalid_request',
      '__proto__',
    )
  })

  it('answers 415 unless the body is sent as application/json', async () => {
    for (const type of [
      undefined,
      'text/plain',
      'application/x-www-form-urlencoded',
      'application/jsonx',
      'application/json; charset=latin1',
      'application/json; charset="latin1"',
      'application/json; charset="utf\\-16"',
      'application/json; nameonly',
      // A value is a token or a quoted string (RFC 9110 §5.6.6): never nothing.
      'application/json; foo=',
      'multipart/form-data',
    ]) {
      expectError(await post('{"name":"x","categoryId":1}', type), 415, 'unsupported_media_type')
    }
    for (const type of [
      'application/json; charset=utf-8',
      'Application/JSON',
      'application/json;charset="UTF-8"',
      // A quoted-pair stands for its character (RFC 9110 §5.6.4).
      'application/json; charset="utf\\-8"',
      'application/json; profile="a\\"b"; charset=utf-8',
      // RFC 9110 §5.6.6: empty parameters are allowed; unknown ones are ignored
      'application/json;',
      'application/json; ;',
      'application/json; profile=pet; charset=utf-8',
    ]) {
      expect((await post('{"name":"x","categoryId":1}', type)).status, type).to.equal(201)
    }
  })

  it('answers 400 invalid_json for malformed JSON, a non-object or an empty body', async () => {
    for (const body of [
      '',
      '   ',
      '{',
      '{"name":"x",}',
      "{'name':'x'}",
      '{"name":"x","name":"y","categoryId":1}',
      'nul',
      '{"a":1}{"b":2}',
    ]) {
      expectError(await post(body, 'application/json'), 400, 'invalid_json')
    }
    for (const body of ['[]', '"pet"', '42', 'null', 'true']) {
      expectError(
        await post(body, 'application/json'),
        400,
        'invalid_request',
        'body must be a JSON object',
      )
    }
  })

  it('answers 400 for invalid UTF-8 and deeply nested JSON, never 500', async () => {
    expectError(
      await post(Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]), 'application/json'),
      400,
      'invalid_json',
      'UTF-8',
    )
    expectError(await post('['.repeat(4000) + ']'.repeat(4000), 'application/json'), 400)
    expectError(
      await post(
        `{"name":"x","categoryId":1,"status":${'{"a":'.repeat(1300)}1${'}'.repeat(1300)}}`,
        'application/json',
      ),
      400,
    )
  })

  it('answers 413 for a body over 8192 bytes, declared or streamed', async () => {
    const big = JSON.stringify({ name: 'x'.repeat(9000), categoryId: 1 })
    expectError(await post(big, 'application/json'), 413, 'payload_too_large')
    const chunked = await api.request({
      method: 'POST',
      path: '/v1/pets',
      headers: { ...auth, 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' },
      body: big,
    })
    expectError(chunked, 413, 'payload_too_large')
  })

  // A body that came with its headers is taken at once; one still arriving is read as a stream.
  it('reads a body the same whether it came with its headers or arrives after them in pieces', async () => {
    const head = `POST /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: ${auth.Authorization}\r\nContent-Type: application/json\r\nConnection: close\r\n`
    const body = '{"name":"Slow Rex","categoryId":7}'
    const big = JSON.stringify({ name: 'x'.repeat(9000), categoryId: 1 })
    const hex = (s: string) => `${s.length.toString(16)}\r\n${s}\r\n0\r\n\r\n`
    const chunk = (s: string) => `${s.length.toString(16)}\r\n${s}\r\n`
    const cases: ReadonlyArray<[string, ReadonlyArray<string>, RegExp]> = [
      ['one piece', [`${head}Content-Length: ${body.length}\r\n\r\n${body}`], /^HTTP\/1\.1 201 /],
      [
        'pieces',
        [`${head}Content-Length: ${body.length}\r\n\r\n`, body.slice(0, 9), body.slice(9)],
        /^HTTP\/1\.1 201 /,
      ],
      [
        'one piece, too large',
        [`${head}Transfer-Encoding: chunked\r\n\r\n${hex(big)}`],
        /^HTTP\/1\.1 413 /,
      ],
      [
        'pieces, too large',
        [
          `${head}Transfer-Encoding: chunked\r\n\r\n`,
          chunk(big.slice(0, 5000)),
          hex(big.slice(5000)),
        ],
        /^HTTP\/1\.1 413 /,
      ],
    ]
    // Taken at once, the body still counts as read: the connection stays open for the next one.
    const keepAlive = head.replace('Connection: close\r\n', '')
    const two = await sendInPieces(
      api.port,
      [
        `${keepAlive}Content-Length: ${body.length}\r\n\r\n${body}${head}Content-Length: ${body.length}\r\n\r\n${body}`,
      ],
      30,
    )
    expect(two.match(/HTTP\/1\.1 201 /g)).to.have.length(2)
    expect(two.match(/Connection: close/gi)).to.have.length(1)
    for (const [name, pieces, status] of cases) {
      const answer = await sendInPieces(api.port, pieces, 30)
      expect(answer, name).to.match(status)
      if (status.test('HTTP/1.1 201 ')) expect(answer, name).to.include('"name":"Slow Rex"')
      else expect(answer, name).to.include('"code":"payload_too_large"')
    }
  })

  it('accepts a name of the longest length, in astral characters', async () => {
    const name = '🐈'.repeat(PET_NAME_MAX_LENGTH)
    const reply = await api.createPet({ name, categoryId: 1n })
    expect(reply.status).to.equal(201)
    expect((reply.json as { name: string }).name).to.equal(name)
  })
})
