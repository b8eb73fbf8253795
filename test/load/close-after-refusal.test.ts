import { connect } from 'node:net'
import { expect } from 'chai'
import { OTHER_KEY, TEST_KEY } from '../support/app.js'
import { expectAliveAndAnswering } from './attack.js'
import { call, startHeapService, stopAgent, type HeapService } from './heap-walk.js'

const AUTH = `Authorization: Bearer ${TEST_KEY}`
const create = (name: string, extra = '') => {
  const body = `{"name":"${name}","categoryId":1}`
  return `POST /v1/pets HTTP/1.1\r\nHost: x\r\n${AUTH}\r\nContent-Type: application/json\r\n${extra}Content-Length: ${body.length}\r\n\r\n${body}`
}

/** Refusals that say `Connection: close`, each with a create pipelined behind it. */
const REFUSALS = [
  `POST /v1/pets HTTP/1.1\r\nHost: x\r\n${AUTH}\r\nTransfer-Encoding: identity, chunked\r\n\r\n0\r\n\r\n`,
  create('refused', 'Expect: foo\r\n'),
]

/** Sends `bytes` on a fresh connection and waits for the server to close it. */
const sendAndWait = (port: number, bytes: string): Promise<void> =>
  new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1' })
    socket.on('error', () => resolve())
    socket.on('data', () => {})
    socket.once('close', () => resolve())
    socket.write(bytes)
    socket.setTimeout(5000, () => socket.destroy())
  })

describe('creates pipelined behind a refusal that closes (capped heap)', function () {
  this.timeout(60_000)
  let service: HeapService | undefined
  after(async () => {
    if (service?.child.connected === true) await service.stop()
    stopAgent()
  })

  it('are never carried out', async () => {
    service = await startHeapService(
      { API_KEYS: `${TEST_KEY},${OTHER_KEY}`, RATE_LIMIT: 'off' },
      128,
    )
    const port = service.port
    await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        sendAndWait(port, (REFUSALS[i % 2] as string) + create(`behind-${i}`)),
      ),
    )
    const listed = await call(port, 'GET', '/v1/pets?limit=100', {
      authorization: `Bearer ${OTHER_KEY}`,
    })
    const stored = (listed.text.match(/behind-/g) ?? []).length
    console.log(`      creates behind a refusal stored: ${stored} of 100`)
    expect(stored).to.equal(0)
    await expectAliveAndAnswering(service, OTHER_KEY)
  })
})
