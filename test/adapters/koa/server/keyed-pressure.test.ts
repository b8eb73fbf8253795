import { Agent, request } from 'node:http'
import { connect } from 'node:net'
import { setTimeout as sleep } from 'node:timers/promises'
import { expect } from 'chai'
import { OTHER_KEY, TEST_KEY, startTestApi, type TestApi } from '../../../support/app.js'
import { hold } from '../../../support/held-connections.js'

/** One request from 127.0.0.1 with `key`; its status, or 0 when the connection failed. */
const call = (port: number, key: string, agent: Agent | false, method = 'GET'): Promise<number> =>
  new Promise((resolve) => {
    const body = method === 'POST' ? '{"name":"Rex","categoryId":1}' : undefined
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method,
        path: '/v1/pets?limit=1',
        agent,
        headers: {
          authorization: `Bearer ${key}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
      },
      (res) => res.resume().on('end', () => resolve(res.statusCode ?? 0)),
    )
    req.on('error', () => resolve(0))
    req.setTimeout(5000, () => req.destroy())
    req.end(body)
  })

const share = (statuses: number[]): number =>
  statuses.filter((s) => s >= 200 && s < 300).length / statuses.length

describe('HTTP: keyed clients under pressure at the connection cap', function () {
  this.timeout(30_000)
  let api: TestApi

  afterEach(() => api.close())

  it('a write key sending bodies a byte a second from two addresses does not lock out another key', async () => {
    api = await startTestApi({ env: { MAX_CONNECTIONS: '200', RATE_LIMIT: 'off' } })
    const head = `POST /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${OTHER_KEY}\r\nContent-Type: application/json\r\nContent-Length: 8000\r\n\r\n{`
    const attack = ['127.0.0.2', '127.0.0.3'].map((from) =>
      hold(api.port, from, 100, (s) => s.write(head)),
    )
    const drip = setInterval(
      () => attack.forEach((a) => a.sockets.forEach((s) => s.write(' '))),
      1000,
    )
    try {
      await sleep(2500) // every connection of the attack has been open more than a tick
      const agent = new Agent({ keepAlive: true, maxSockets: 2 })
      const statuses: number[] = []
      for (let i = 0; i < 40; i++) {
        statuses.push(await call(api.port, TEST_KEY, i % 2 === 0 ? false : agent, 'POST'))
        statuses.push(await call(api.port, TEST_KEY, agent))
      }
      agent.destroy()
      console.log(
        `      the other key's 2xx: ${statuses.length * share(statuses)} of ${statuses.length}`,
        statuses.join(' '),
      )
      expect(share(statuses), statuses.join(' ')).to.be.at.least(0.9)
    } finally {
      clearInterval(drip)
      attack.forEach((a) => a.stop())
    }
  })

  it("a key opening connections all the time never takes another key's pool within its share", async () => {
    api = await startTestApi({
      env: { MAX_CONNECTIONS: '40', MAX_CONNECTIONS_PER_ADDRESS: '40', RATE_LIMIT: 'off' },
    })
    const pool = new Agent({ keepAlive: true, maxSockets: 10 })
    await Promise.all(Array.from({ length: 10 }, () => call(api.port, TEST_KEY, pool)))
    // Some 50 new connections a second, each asking once and then kept open, idle.
    let newcomers = 0
    const others = hold(api.port, '127.0.0.1', 1, (s) => {
      newcomers++
      s.write(
        `GET /v1/pets?limit=1 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${OTHER_KEY}\r\n\r\n`,
      )
    })
    const opener = setInterval(() => {
      const s = connect({ port: api.port, host: '127.0.0.1' })
      s.on('error', () => {})
      others.sockets.add(s)
      s.once('connect', () => {
        newcomers++
        s.write(
          `GET /v1/pets?limit=1 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${OTHER_KEY}\r\n\r\n`,
        )
      })
    }, 20)
    const statuses: number[] = []
    try {
      const until = Date.now() + 4000
      const worker = async () => {
        while (Date.now() < until) statuses.push(await call(api.port, TEST_KEY, pool))
      }
      await Promise.all(Array.from({ length: 10 }, worker))
    } finally {
      clearInterval(opener)
      others.stop()
      pool.destroy()
    }
    console.log(`      ${newcomers} newcomers; the pool's requests: ${statuses.length}`)
    expect(newcomers).to.be.above(50)
    expect(
      statuses.filter((s) => s !== 200),
      `of ${statuses.length}`,
    ).to.deep.equal([])
  })
})
