import { expect } from 'chai'
import { tempKeyFile } from '../support/minted-keys.js'
import { call, fillWorstCase, startHeapService, stopAgent, type HeapService } from './heap-walk.js'

const REFUSALS = 12_000
const MB = 2 ** 20

/** Keyed creates, each with a key never used before; the statuses seen, with their counts. */
const freshKeyedCreates = async (port: number, writer: string, count: number) => {
  const statuses = new Map<number, number>()
  let sent = 0
  const worker = async () => {
    while (sent < count) {
      const i = sent++
      const headers = {
        authorization: `Bearer ${writer}`,
        'content-type': 'application/json',
        'idempotency-key': `refused-${i}`.padEnd(255, 'r'),
      }
      const { status } = await call(
        port,
        'POST',
        '/v1/pets',
        headers,
        '{"name":"Rex","categoryId":1}',
      )
      statuses.set(status, (statuses.get(status) ?? 0) + 1)
    }
  }
  await Promise.all(Array.from({ length: 8 }, worker))
  return Object.fromEntries(statuses)
}

/**
 * A refused keyed create keeps nothing: on a full in-memory store (MAX_PETS=100), a stream of
 * creates with fresh Idempotency-Keys, all refused 507, leaves the heap where it was.
 */
describe('the heap under keyed creates refused by a full store (capped heap)', function () {
  this.timeout(180_000)
  const file = tempKeyFile()
  let service: HeapService | undefined
  after(async () => {
    await service?.stop()
    stopAgent()
    file.remove()
  })

  it(`keeps nothing of ${REFUSALS} refused keyed creates`, async () => {
    const writer = (await file.mint(['pets:write'])).key
    const env = { API_KEYS_FILE: file.path, RATE_LIMIT: 'off', MAX_PETS: '100' }
    service = await startHeapService(env, 128)
    expect(await fillWorstCase(service.port, writer, Infinity)).to.equal(100)
    const full = await service.heapUsed()
    expect(await freshKeyedCreates(service.port, writer, REFUSALS)).to.deep.equal({
      507: REFUSALS,
    })
    const grown = (await service.heapUsed()) - full
    expect(grown / MB, 'heap grown by the refusals, in MB').to.be.lessThan(1)
  })
})
