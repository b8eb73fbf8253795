import { expect } from 'chai'
import fc from 'fast-check'
import { INT64_DECIMAL_PATTERN } from '../../../adapters/koa/app/json/int64-form.js'
import { asksInt64Strings, sendsInt64Strings } from '../../../adapters/koa/request/int64-form.js'
import { INT64_MAX } from '../../../core/index.js'
import { auth, startTestApi, type TestApi } from '../../support/app.js'
import { expectError } from '../../support/expect-error.js'
import type { Reply } from '../../support/http.js'

const STRING_FORM = 'application/json; int64=string'
/** 2^53 + 1: the first integer a double cannot hold, so JSON.parse reads it as 2^53. */
const PAST_DOUBLES = '9007199254740993'

describe('the string form of int64 values: media type parameter', () => {
  it('is named by application/json with int64=string, in Content-Type or any item of Accept', () => {
    for (const named of [
      STRING_FORM,
      'application/json;int64=string',
      'Application/JSON; INT64="string"',
      'application/json; charset=utf-8; int64=string',
      'application/json;; int64=string',
      'application/json; ; int64=string;',
      'application/json; a="x;y,\\"z"; int64=string',
    ]) {
      expect(asksInt64Strings(named), named).to.equal(true)
      expect(sendsInt64Strings(named), named).to.equal(true)
    }
    for (const plain of [
      undefined,
      '',
      'application/json',
      '*/*',
      'application/json; int64=number',
      '*/*; int64=string',
      'text/plain; int64=string',
      'application/json; int64=string; foo',
      'application/json; int64=string; a="unclosed',
      'application/json int64=string',
      'application/json; int64 = string',
    ]) {
      expect(asksInt64Strings(plain), String(plain)).to.equal(false)
      expect(sendsInt64Strings(plain), String(plain)).to.equal(false)
    }
  })

  it('reads q in Accept as a weight from 0 to 1 with at most 3 decimals, anything else invalid', () => {
    for (const named of [
      'text/html, application/json; int64=string; q=0.5',
      'application/json; int64=string; Q=1.000',
      'application/json; int64=string; q=0.001, text/html; q=0',
      ', , application/json; int64=string,',
    ])
      expect(asksInt64Strings(named), named).to.equal(true)
    for (const plain of [
      'application/json; int64=string; q=0',
      'application/json; int64=string; q=0.000',
      'application/json; int64=string; q=-1',
      'application/json; int64=string; q=abc',
      'application/json; int64=string; q=1.5',
      'application/json; int64=string; q=0.0001',
      'application/json; int64=string; q="0.5"',
      'application/json; int64=string; q=1.001',
      'application/json; int64=string, text/html; q=2',
    ])
      expect(asksInt64Strings(plain), plain).to.equal(false)
  })

  it('reads q in Content-Type as an ordinary parameter', () => {
    expect(sendsInt64Strings('application/json; int64=string; q=0')).to.equal(true)
    expect(sendsInt64Strings('application/json; int64=string, text/html')).to.equal(false)
  })

  it('has a pattern that matches exactly the digits of 1 to 2^63-1, without a leading zero', () => {
    const pattern = new RegExp(INT64_DECIMAL_PATTERN)
    fc.assert(
      fc.property(fc.bigInt({ min: -(2n ** 64n), max: 2n ** 64n }), (n) => {
        expect(pattern.test(String(n)), String(n)).to.equal(n >= 1n && n <= INT64_MAX)
      }),
      { numRuns: 2000 },
    )
    for (const edge of [INT64_MAX, INT64_MAX - 1n, 1n, 10n ** 18n, 10n ** 18n - 1n])
      expect(pattern.test(String(edge)), String(edge)).to.equal(true)
    for (const refused of ['0', '07', INT64_MAX + 1n, '1e3', ' 1', '+1', ''])
      expect(pattern.test(String(refused)), String(refused)).to.equal(false)
  })
})

describe('HTTP: the string form of int64 values, per request', () => {
  let api: TestApi
  beforeEach(async () => (api = await startTestApi()))
  afterEach(() => api.close())

  const create = (contentType: string, body: string, accept?: string) =>
    api.request({
      method: 'POST',
      path: '/v1/pets',
      headers: {
        ...auth,
        'Content-Type': contentType,
        ...(accept === undefined ? {} : { Accept: accept }),
      },
      body,
    })

  it('round-trips a categoryId past 2^53 exactly, as strings both ways', async () => {
    const sent = `{"name":"Rex","categoryId":"${PAST_DOUBLES}"}`
    const created = await create(STRING_FORM, sent, STRING_FORM)
    expect(created.status).to.equal(201)
    expect(created.headers['content-type']).to.equal(STRING_FORM)
    expect(created.text).to.equal(`{"id":"1","name":"Rex","categoryId":"${PAST_DOUBLES}"}`)
    // A double-based parser reads the strings exactly: nothing to round.
    expect((JSON.parse(created.text) as { categoryId: string }).categoryId).to.equal(PAST_DOUBLES)

    const read = { ...auth, Accept: STRING_FORM }
    const listed = await api.request({ path: '/v1/pets', headers: read })
    expect(listed.text).to.equal(`[{"id":"1","name":"Rex","categoryId":"${PAST_DOUBLES}"}]`)
    const one = await api.request({ path: String(created.headers.location), headers: read })
    expect(one.text).to.equal(`{"id":"1","name":"Rex","categoryId":"${PAST_DOUBLES}"}`)
  })

  it('leaves the default form as it was, byte for byte, whatever else Accept says', async () => {
    const created = await create('application/json', `{"name":"Rex","categoryId":${PAST_DOUBLES}}`)
    const plain = `{"id":1,"name":"Rex","categoryId":${PAST_DOUBLES}}`
    expect(created.text).to.equal(plain)
    expect(created.headers['content-type']).to.equal('application/json')
    for (const accept of [undefined, 'application/json', '*/*', `${STRING_FORM}; q=0`]) {
      const headers = accept === undefined ? auth : { ...auth, Accept: accept }
      const listed = await api.request({ path: '/v1/pets', headers })
      expect(listed.text, accept).to.equal(`[${plain}]`)
      expect(listed.headers['content-type'], accept).to.equal('application/json')
    }
  })

  it('reads an empty parameter, and q in Content-Type, as the string form both ways', async () => {
    const empty = 'application/json;; int64=string'
    const created = await create(empty, `{"name":"A","categoryId":"${PAST_DOUBLES}"}`, empty)
    expect(created.status).to.equal(201)
    expect(created.headers['content-type']).to.equal(STRING_FORM)
    expect(created.text).to.equal(`{"id":"1","name":"A","categoryId":"${PAST_DOUBLES}"}`)
    const weighted = await create(
      `${STRING_FORM}; q=0`,
      `{"name":"B","categoryId":"${PAST_DOUBLES}"}`,
    )
    expect(weighted.text).to.equal(`{"id":2,"name":"B","categoryId":${PAST_DOUBLES}}`)
    for (const accept of [`${STRING_FORM}; q=-1`, `${STRING_FORM}; q=abc`]) {
      const listed = await api.request({ path: '/v1/pets', headers: { ...auth, Accept: accept } })
      expect(listed.headers['content-type'], accept).to.equal('application/json')
    }
  })

  it('chooses each direction apart: a string body, a plain answer, and the reverse', async () => {
    const stringsIn = await create(STRING_FORM, `{"name":"A","categoryId":"${PAST_DOUBLES}"}`)
    expect(stringsIn.text).to.equal(`{"id":1,"name":"A","categoryId":${PAST_DOUBLES}}`)
    const stringsOut = await create(
      'application/json',
      `{"name":"B","categoryId":${PAST_DOUBLES}}`,
      STRING_FORM,
    )
    expect(stringsOut.text).to.equal(`{"id":"2","name":"B","categoryId":"${PAST_DOUBLES}"}`)
  })

  it('refuses a number in a string-form body, and a string in a plain one, naming the field', async () => {
    const number = await create(STRING_FORM, `{"name":"Rex","categoryId":${PAST_DOUBLES}}`)
    expectError(number, 400, 'invalid_request')
    expect(number.text).to.include('categoryId must be a string of the digits')
    for (const digits of ['0', '007', '9223372036854775808', '-1', '1.0'])
      expectError(
        await create(STRING_FORM, `{"name":"Rex","categoryId":"${digits}"}`),
        400,
        'invalid_request',
      )
    expectError(await create('application/json', '{"name":"Rex","categoryId":"5"}'), 400)
    // An id is refused as in the plain form: not a field a create takes.
    const withId = await create(STRING_FORM, '{"name":"Rex","categoryId":"5","id":"1"}')
    expectError(withId, 400, 'invalid_request', 'id is not a known field')
  })

  it('names every problem of a string-form body, in the order and words of the plain form', async () => {
    const problemsOf = (reply: Reply) =>
      String((reply.json as { message: string }).message).split('; ')
    const strings = await create(
      STRING_FORM,
      '{"status":"lost","name":"","categoryId":5,"extra":1}',
    )
    const plain = await create(
      'application/json',
      '{"status":"lost","name":"","categoryId":"5","extra":1}',
    )
    expectError(strings, 400, 'invalid_request')
    expectError(plain, 400, 'invalid_request')
    const [extra, name, categoryId, status, ...more] = problemsOf(strings)
    expect(more).to.deep.equal([])
    expect([extra, name, status]).to.deep.equal(problemsOf(plain).filter((p, i) => i !== 2))
    expect(extra).to.equal('extra is not a known field')
    expect(categoryId).to.match(/^categoryId must be a string of the digits .* int64=string form$/)
    expect(problemsOf(plain)[2]).to.match(/^categoryId must be an integer/)
  })

  it('labels an error answer with the form the request asked for; its text is the same', async () => {
    const asked = await create(STRING_FORM, '{"name":""}', STRING_FORM)
    const plain = await create('application/json', '{"name":""}')
    expect(asked.status).to.equal(400)
    expect(asked.headers['content-type']).to.equal(STRING_FORM)
    expect(plain.headers['content-type']).to.equal('application/json')
    expect(asked.text).to.equal(plain.text)
  })
})
