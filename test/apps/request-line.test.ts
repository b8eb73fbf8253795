import { Writable } from 'node:stream'
import { expect } from 'chai'
import fc from 'fast-check'
import * as TE from 'fp-ts/lib/TaskEither.js'
import { pino } from 'pino'
import type { RequestRecord, TraceLogFields } from '../../adapters/koa/index.js'
import { pinoRequestLine } from '../../apps/server/request-line.js'
import { inMemoryStorage } from '../../apps/server/storage.js'
import { storeUnavailable } from '../../core/index.js'
import { auth, startTestApi } from '../support/app.js'

const BASE = { pid: 4242, hostname: 'node-7.example "quoted"' }

/** What pino itself writes for `info(record, 'request')`, with the same pid and hostname. */
const pinoLine = (record: RequestRecord, ids?: TraceLogFields): string => {
  let line = ''
  const sink = new Writable({
    write: (chunk: Buffer, _encoding, done) => ((line += chunk.toString('utf8')), done()),
  })
  const mixin = ids === undefined ? {} : { mixin: () => ids }
  pino({ level: 'info', base: BASE, ...mixin }, sink).info(record, 'request')
  return line
}

const ourLine = (record: RequestRecord): string => {
  let line = ''
  pinoRequestLine((l) => (line += l), BASE)(record)
  return line
}

const IDS: TraceLogFields = {
  trace_id: '4bf92f3577b34da6a3ce929d0e0e4736',
  span_id: '00f067aa0ba902b7',
  trace_flags: '01',
}

const timeless = (line: string) => line.replace(/"time":\d+/, '"time":0')

const record: RequestRecord = {
  requestId: '3f2a9c1e-0b7d-4e55-9a51-2f0c8d6b1a77',
  method: 'GET',
  route: '/v1/pets/:petId',
  status: 200,
  ms: 0.42,
  keyId: 'key-0a1b2c3d',
  client: '2001:db8::7',
}

describe('the request log line', () => {
  it('is byte for byte the line pino writes for the same record, but for the time', () => {
    for (const r of [record, { ...record, route: null, keyId: null, status: 401, ms: 12 }])
      expect(timeless(ourLine(r))).to.equal(timeless(pinoLine(r)))
  })

  it("with tracing, names the record's trace where pino's OpenTelemetry mixin puts the ids", () => {
    const traced = { ...IDS, ...record }
    expect(timeless(ourLine(traced))).to.equal(timeless(pinoLine(record, IDS)))
    expect(timeless(ourLine(traced))).to.equal(timeless(pinoLine(traced)))
    expect(JSON.parse(ourLine(traced))).to.include(IDS)
  })

  it('writes any trace ids of hexadecimal digits, either case, as pino does', () => {
    const hex = (length: number) =>
      fc.string({
        unit: fc.constantFrom(...'0123456789abcdefABCDEF'),
        minLength: length,
        maxLength: length,
      })
    fc.assert(
      fc.property(
        fc.record({
          trace_id: hex(32),
          span_id: hex(16),
          trace_flags: fc.constantFrom('00', '01'),
        }),
        (ids) => {
          const ours = ourLine({ ...ids, ...record })
          expect(timeless(ours)).to.equal(timeless(pinoLine(record, ids)))
          expect(JSON.parse(ours)).to.include(ids)
        },
      ),
      { numRuns: 200 },
    )
  })

  it('parses to what pino writes for any strings and numbers, escapes included', () => {
    fc.assert(
      fc.property(
        fc.record({
          requestId: fc.string({ unit: 'binary' }),
          method: fc.string(),
          route: fc.option(fc.string({ unit: 'binary' })),
          status: fc.integer({ min: 100, max: 599 }),
          ms: fc.double({ min: 0, max: 1e6, noNaN: true }),
          keyId: fc.option(fc.string({ unit: 'grapheme' })),
          client: fc.string({ unit: 'binary' }),
        }),
        (r) => {
          const ours = ourLine(r)
          expect(ours.endsWith('}\n')).to.equal(true)
          expect(ours.indexOf('\n')).to.equal(ours.length - 1)
          const parsed = JSON.parse(ours) as Record<string, unknown>
          const theirs = JSON.parse(pinoLine(r)) as Record<string, unknown>
          expect({ ...parsed, time: 0 }).to.deep.equal({ ...theirs, time: 0 })
          expect(parsed.time).to.be.a('number')
        },
      ),
    )
  })

  it('takes every request of the app, and leaves a store failure to the logger as a warning', async () => {
    const records: RequestRecord[] = []
    const warnings: object[] = []
    const logger = {
      info: () => expect.fail('the request line, not the logger, takes requests'),
      warn: (fields: object) => warnings.push(fields),
      error: () => {},
    }
    const storage = inMemoryStorage()
    const down = () => TE.left(storeUnavailable('connection refused'))
    const api = await startTestApi({
      logger,
      requestLine: (r) => records.push(r),
      storage: { ...storage, store: { ...storage.store, findPet: down } },
    })
    try {
      await api.get('/pets?limit=5')
      await api.request({ path: '/v1/pets', headers: { Authorization: 'Bearer wrong' } })
      await api.request({ path: '/v1/pets/1', headers: { ...auth, 'X-Request-Id': 'trace-9' } })
    } finally {
      await api.close()
    }
    expect(records.map((r) => [r.method, r.route, r.status, r.keyId === null])).to.deep.equal([
      ['GET', '/v1/pets', 200, false],
      ['GET', null, 401, true],
    ])
    expect(warnings).to.have.length(1)
    expect(warnings[0]).to.include({ requestId: 'trace-9', status: 503 })
    expect(warnings[0]).to.include({ storeFailure: 'connection refused' })
  })
})
