import { Agent } from 'node:http'
import { connect, type Socket } from 'node:net'
import { setTimeout as sleep } from 'node:timers/promises'
import { expect } from 'chai'
import { OTHER_KEY, TEST_KEY } from '../support/app.js'
import { expectAliveAndAnswering, median, timedCall, underAttack } from './attack.js'

/** An `Accept` near the header limit that names `int64`, as finding 2 of issue 40 sent it. */
const LONG_ACCEPT = `int64${'a'.repeat(16_000)}`
const REQUEST = `GET /v1/pets HTTP/1.1\r\nHost: x\r\nAccept: ${LONG_ACCEPT}\r\n\r\n`

/** An anonymous client that asks again as soon as an answer (a 401) comes. */
const anonymous = (port: number): Socket => {
  const socket = connect({ port, host: '127.0.0.1' })
  socket.on('error', () => {})
  socket.on('data', () => socket.write(REQUEST))
  socket.write(REQUEST)
  return socket
}

describe('a long Accept from anonymous clients (capped heap)', function () {
  this.timeout(60_000)
  const { sockets, start } = underAttack()

  it('leaves a keyed client its latency', async () => {
    const service = await start({ API_KEYS: `${TEST_KEY},${OTHER_KEY}`, RATE_LIMIT: 'off' }, 128)
    for (let i = 0; i < 4; i++) sockets.push(anonymous(service.port))
    await sleep(500)
    const agent = new Agent({ keepAlive: true, maxSockets: 1 })
    const latencies: number[] = []
    const failed: number[] = []
    for (const until = Date.now() + 5000; latencies.length < 50 && Date.now() < until;) {
      const { status, ms } = await timedCall(service.port, OTHER_KEY, { agent })
      if (status !== 200) failed.push(status)
      latencies.push(ms)
      await sleep(20)
    }
    agent.destroy()
    const worst = Math.max(...latencies)
    console.log(
      `      keyed median ${median(latencies)} ms, max ${worst} ms, over ${latencies.length} requests; failed: ${failed.length}`,
    )
    expect(failed).to.deep.equal([])
    expect(median(latencies)).to.be.below(20)
    await expectAliveAndAnswering(service, OTHER_KEY)
  })
})
