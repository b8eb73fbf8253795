import { Writable } from 'node:stream'
import { expect } from 'chai'
import { pino } from 'pino'
import { digestOf } from '../../adapters/in-memory/index.js'
import { auth, startTestApi, TEST_KEY } from '../support/app.js'
import { tempKeyFile } from '../support/minted-keys.js'

/** Captures what pino writes, one parsed object per line. */
const capture = () => {
  const lines: string[] = []
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean))
      done()
    },
  })
  return { lines, logger: pino({ level: 'info' }, stream) }
}

describe('request logs', () => {
  it('log one structured line per request and never the API key', async () => {
    const { lines, logger } = capture()
    const api = await startTestApi({ logger })
    const wrongKey = 'wrong-key-that-must-not-be-logged'
    try {
      await api.get('/pets?limit=5')
      await api.request({ path: '/v1/pets/1', headers: { ...auth, 'X-Request-Id': 'trace-42' } })
      await api.request({ path: '/v1/pets', headers: { Authorization: `Bearer ${wrongKey}` } })
      await api.request({ path: `/v1/pets?api_key=${TEST_KEY}`, headers: auth })
      await api.createPet({ name: TEST_KEY, categoryId: 1n })
    } finally {
      await api.close()
    }
    const records = lines.map((line) => JSON.parse(line) as Record<string, unknown>)
    expect(records).to.have.length(5)
    for (const record of records) {
      expect(record).to.include.keys(
        'requestId',
        'method',
        'route',
        'status',
        'ms',
        'time',
        'level',
      )
      expect(record.ms).to.be.a('number')
    }
    expect(records.map((r) => r.status)).to.deep.equal([200, 404, 401, 400, 201])
    expect(records[0]).to.include({ method: 'GET', route: '/v1/pets' })
    expect(records[1]).to.include({ requestId: 'trace-42', route: '/v1/pets/:petId' })
    expect(records[0]?.keyId).to.match(/^key-[0-9a-f]{8}$/)
    const all = lines.join('\n')
    expect(all).to.not.include(TEST_KEY)
    expect(all).to.not.include(wrongKey)
    expect(all).to.not.include(digestOf(TEST_KEY))
    expect(all).to.not.include(digestOf(wrongKey))
  })
})

describe('request logs of minted keys, scopes and limits', () => {
  it('log the key id of a 403 and a 429, never the key or its digest', async () => {
    const { lines, logger } = capture()
    const file = tempKeyFile()
    const frozen = Date.now()
    const { key, stored } = await file.mint(['pets:read'])
    const api = await startTestApi({
      logger,
      env: {
        API_KEYS_FILE: file.path,
        RATE_LIMIT: 'on',
        RATE_LIMIT_RPS: '1',
        RATE_LIMIT_BURST: '2',
      },
      now: () => frozen, // no refill between the requests, however slow the machine
    })
    const headers = { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' }
    try {
      await api.request({ path: '/v1/pets', headers })
      await api.request({ method: 'POST', path: '/v1/pets', headers, body: '{}' })
      await api.request({ path: '/v1/pets', headers })
    } finally {
      await api.close()
      file.remove()
    }
    const records = lines.map((line) => JSON.parse(line) as Record<string, unknown>)
    expect(records.map((r) => [r.status, r.keyId])).to.deep.equal([
      [200, stored.id],
      [403, stored.id],
      [429, stored.id],
    ])
    const all = lines.join('\n')
    expect(all).to.not.include(key)
    expect(all).to.not.include(stored.digest)
  })
})
