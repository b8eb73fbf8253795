import { connect, type Socket } from 'node:net'
import { setTimeout as sleep } from 'node:timers/promises'
import { expect } from 'chai'
import { OTHER_KEY, TEST_KEY } from '../support/app.js'
import { expectAliveAndAnswering, timedCall, underAttack } from './attack.js'
import { fillWorstCase } from './heap-walk.js'

/**
 * Issue 40's first finding, scaled to CI: a read key's clients, from two addresses, pipeline 64
 * listings of 100 pets each on many connections and read nothing. Each connection alone stays
 * within its own bound; together they held more than the capped heap.
 */
const CONNECTIONS = 300
const PAGE = `GET /v1/pets?limit=100 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TEST_KEY}\r\n\r\n`
const MB = 2 ** 20

/** A connection from `from` that sends 64 listings and reads nothing. */
const hostile = (port: number, from: string): Socket => {
  const socket = connect({ port, host: '127.0.0.1', localAddress: from })
  socket.pause()
  socket.on('error', () => {})
  socket.write(PAGE.repeat(64))
  return socket
}

describe('listings pipelined on many connections and never read (capped heap)', function () {
  this.timeout(120_000)
  const { sockets, start } = underAttack()

  it('hold no more than the in-flight budget, and another key is answered', async () => {
    const env = { API_KEYS: `${TEST_KEY},${OTHER_KEY}`, RATE_LIMIT: 'off' }
    const service = await start(env, 128)
    expect(await fillWorstCase(service.port, TEST_KEY, 1000)).to.equal(1000)
    const before = await service.heapUsed()
    const during: Array<{ status: number; ms: number }> = []
    for (let i = 0; i < CONNECTIONS; i++) {
      sockets.push(hostile(service.port, i % 2 === 0 ? '127.0.0.2' : '127.0.0.3'))
      if (i % 50 === 49) during.push(await timedCall(service.port, OTHER_KEY))
    }
    await sleep(2000)
    expect(service.child.exitCode, 'still running').to.equal(null)
    const held = ((await service.heapUsed()) - before) / MB
    console.log(
      `      heap held by ${CONNECTIONS} connections: ${held.toFixed(1)} MB; another key's requests during it: ${during.map((r) => `${r.status} in ${r.ms} ms`).join(', ')}`,
    )
    expect(held).to.be.below(48) // the budget, 32 MiB, and a margin
    // Answered while the attack is taken in (they wait their turn behind its listings).
    expect(during.map((r) => r.status)).to.deep.equal(during.map(() => 200))
    await expectAliveAndAnswering(service, OTHER_KEY)
  })
})
