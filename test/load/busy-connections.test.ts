import { Agent } from 'node:http'
import { connect, type Socket } from 'node:net'
import { setTimeout as sleep } from 'node:timers/promises'
import { expect } from 'chai'
import { OTHER_KEY, TEST_KEY } from '../support/app.js'
import { hold } from '../support/held-connections.js'
import { expectAliveAndAnswering, timedCall } from './attack.js'
import { startHeapService, stopAgent, type HeapService } from './heap-walk.js'

/** The head of a keyed create whose 8,000-byte body is still to come. */
const BODY_HEAD = `POST /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TEST_KEY}\r\nContent-Type: application/json\r\nContent-Length: 8000\r\n\r\n{`
const GET = `GET /v1/pets?limit=1 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${OTHER_KEY}\r\n\r\n`
const ENV = { API_KEYS: `${TEST_KEY},${OTHER_KEY}`, RATE_LIMIT: 'off' }

/** A keep-alive connection of the other key that asks once a second; how it fared. */
const steady = (port: number) => {
  const socket = connect({ port, host: '127.0.0.1' })
  const fared = { answered: 0, lost: false }
  socket.on('error', () => {})
  socket.on(
    'data',
    (c: Buffer) => (fared.answered += c.toString().match(/HTTP\/1\.1 200 /g)?.length ?? 0),
  )
  socket.once('close', () => (fared.lost = true))
  const ask = setInterval(() => socket.write(GET), 1000)
  socket.once('connect', () => socket.write(GET))
  return { fared, stop: () => (clearInterval(ask), socket.destroy()) }
}

describe('keyed connections busy sending bodies (capped heap)', function () {
  this.timeout(120_000)
  let service: HeapService | undefined
  const stops: Array<() => void> = []
  afterEach(async () => {
    stops.splice(0).forEach((stop) => stop())
    if (service?.child.connected === true) await service.stop()
  })
  after(() => stopAgent())

  it("a key whose bodies keep their pace takes none of another key's connections", async () => {
    service = await startHeapService({ ...ENV, MAX_CONNECTIONS: '100' }, 128)
    const port = service.port
    const others = Array.from({ length: 10 }, () => steady(port))
    stops.push(...others.map((o) => o.stop))
    await sleep(500)
    // 600 bytes a second on each, from two addresses: every one of them makes progress.
    const attack = ['127.0.0.2', '127.0.0.3'].map((from) =>
      hold(port, from, 60, (s) => s.write(BODY_HEAD)),
    )
    stops.push(...attack.map((a) => a.stop))
    const drip = setInterval(
      () => attack.forEach((a) => a.sockets.forEach((s) => s.write(' '.repeat(60)))),
      100,
    )
    stops.push(() => clearInterval(drip))
    await sleep(6000)
    const lost = others.filter((o) => o.fared.lost).length
    const answered = others.reduce((n, o) => n + o.fared.answered, 0)
    console.log(`      the other key's connections lost: ${lost} of 10; its answers: ${answered}`)
    expect(lost).to.equal(0)
    expect(answered).to.be.at.least(50)
    await expectAliveAndAnswering(service, OTHER_KEY)
  })

  it('a key opening 400 connections a second for bodies a byte a second leaves another key served', async () => {
    service = await startHeapService({ ...ENV, MAX_CONNECTIONS: '200' }, 128)
    const port = service.port
    const attackers = new Set<Socket>()
    const open = (from: string) => {
      const socket = connect({ port, host: '127.0.0.1', localAddress: from })
      attackers.add(socket)
      socket.on('error', () => {})
      socket.once('connect', () => socket.write(BODY_HEAD))
      socket.once('close', () => attackers.delete(socket))
    }
    // 400 a second: 20 every 50 ms, from two addresses.
    const opener = setInterval(() => {
      for (let i = 0; i < 20; i++) open(i % 2 === 0 ? '127.0.0.2' : '127.0.0.3')
    }, 50)
    const drip = setInterval(() => attackers.forEach((s) => s.write(' ')), 1000)
    stops.push(
      () => (clearInterval(opener), clearInterval(drip), attackers.forEach((s) => s.destroy())),
    )
    await sleep(1500)
    const agent = new Agent({ keepAlive: true, maxSockets: 1 })
    const statuses: number[] = []
    for (const until = Date.now() + 6000; Date.now() < until;) {
      statuses.push((await timedCall(port, OTHER_KEY, { agent })).status)
      await sleep(100)
    }
    agent.destroy()
    const ok = statuses.filter((s) => s >= 200 && s < 300).length
    console.log(
      `      the other key's 2xx: ${ok} of ${statuses.length}; statuses: ${[...new Set(statuses)].join(' ')}`,
    )
    expect(ok / statuses.length).to.be.at.least(0.9)
    await expectAliveAndAnswering(service, OTHER_KEY)
  })
})
