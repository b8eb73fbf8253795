import { expect } from 'chai'
import type { Socket } from 'node:net'
import { auth } from '../support/app.js'
import { freshDatabaseName, requireMongo, uriWithDatabase } from '../support/mongo.js'
import { startService, type ServiceProcess } from '../support/service-process.js'
import { clientAt, createCall, type Client } from './clients.js'
import { establishedTo, heldBy, requestLines, restart, stalledPost, until } from './cluster.js'
import {
  DEPLOY_FILES,
  freePort,
  haproxyStatuses,
  requireProxy,
  startProxy,
  type RunningProxy,
} from './proxies.js'
import { startRelays } from './relay.js'

/** Waits until HAProxy's stats page shows the instance UP: two good checks after its restart. */
const untilUp = async (statsPort: number, server: string) => {
  const deadline = Date.now() + 15_000
  while ((await haproxyStatuses(statsPort))[server] !== 'UP')
    if (Date.now() > deadline) throw new Error(`waited 15 s for ${server} to be UP`)
    else await new Promise((resolve) => setTimeout(resolve, 100))
}

const BAD_KEY = { Authorization: 'Bearer not-a-key-0123456789abcdef' }

/**
 * Each proxy of deploy/ in front of two service processes on the MongoDB test server, as
 * docs/deployment.md runs them: TRUST_PROXY is the proxy's address (127.0.0.1), and clients come
 * from other loopback addresses (127.0.0.2, ...).
 */
for (const name of ['haproxy', 'nginx'] as const)
  describe(`deployed behind ${name} (${DEPLOY_FILES[name]}), two instances`, function () {
    this.timeout(120_000)
    const instances: ServiceProcess[] = []
    const clients: Client[] = []
    let proxy: RunningProxy
    let env: Record<string, string>
    const client = (address: string, port = proxy.port) => {
      const made = clientAt(port, address)
      clients.push(made)
      return made
    }

    before(async function () {
      requireProxy(this, name)
      env = {
        MONGODB_URI: uriWithDatabase(requireMongo(this), freshDatabaseName()),
        TRUST_PROXY: '127.0.0.1',
        AUTH_FAILURE_BURST: '3',
        AUTH_FAILURE_RPM: '1',
        MAX_CONNECTIONS_PER_ADDRESS: '2',
        STORE_TIMEOUT_MS: '3000',
      }
      instances.push(...(await Promise.all([0, 1].map(() => startService(env)))))
      const instancePorts = instances.map((instance) => instance.port)
      proxy = await startProxy(name, { port: await freePort(), instancePorts, perClient: 2 })
    })
    afterEach(() => {
      for (const made of clients.splice(0)) made.close()
    })
    after(async () => {
      await proxy?.stop()
      await Promise.all(instances.splice(0).map((instance) => instance.stop()))
    })

    it('client-written forwarding headers change nothing: budgets and log follow the real client', async () => {
      const forger = client('127.0.0.2')
      const statuses: number[] = []
      for (let i = 0; i < 12; i++) {
        // Half name the victim, half invent an address; all three headers a client could try.
        const forged = i % 2 === 0 ? '127.0.0.3' : `198.51.100.${i}`
        const headers = { ...BAD_KEY, Forwarded: `for=${forged}`, 'X-Forwarded-For': forged }
        statuses.push((await forger.send({ path: '/v1/pets', headers })).status)
      }
      // Each instance lets this address fail 3 times (AUTH_FAILURE_BURST), then refuses.
      expect(statuses.filter((status) => status === 401).length).to.be.at.most(6)
      expect(statuses.filter((status) => status === 429).length).to.be.at.least(6)
      expect(statuses.filter((status) => status !== 401 && status !== 429)).to.deep.equal([])
      // The address the forger named still has its whole budget.
      expect(
        (await client('127.0.0.3').send({ path: '/v1/pets', headers: BAD_KEY })).status,
      ).to.equal(401)
      const logged = () => instances.flatMap(requestLines).filter((line) => line.status >= 400)
      await until('13 request lines', () => logged().length === 13)
      expect([...new Set(logged().map((line) => line.client))].sort()).to.deep.equal([
        '127.0.0.2',
        '127.0.0.3',
      ])
    })

    it("the connection cap counts real clients: the proxy's connections are exempt, the proxy caps each client", async () => {
      // Six clients, two requests at a time each: more connections to an instance than its
      // MAX_CONNECTIONS_PER_ADDRESS (2), all from the proxy's address.
      const six = [2, 3, 4, 5, 6, 7].map((n) => client(`127.0.0.${n}`))
      let most = 0
      for (let round = 0; round < 3; round++) {
        const calls = six.flatMap((c) =>
          [0, 1].map(() => c.send({ path: '/v1/pets?limit=1', headers: auth })),
        )
        const statuses = (await Promise.all(calls)).map((answer) => answer.status)
        expect(statuses).to.deep.equal(Array(12).fill(200))
        most = Math.max(most, ...instances.map((instance) => establishedTo(instance.port)))
      }
      expect(most).to.be.greaterThan(2)
      for (const made of clients.splice(0)) made.close()
      // The proxy counts a client's connections until it has closed its side of them.
      await until('the proxy to let the closed clients go', () => heldBy(proxy.port) === 0)

      // The proxy's own cap per client address (2 in this test): a third request at once from
      // 127.0.0.2 is refused, while 127.0.0.3 is served.
      const held: Socket[] = await Promise.all(
        [0, 1].map(() => stalledPost(proxy.port, '127.0.0.2')),
      )
      try {
        await new Promise((resolve) => setTimeout(resolve, 300))
        const third = await client('127.0.0.2')
          .send({ path: '/v1/pets?limit=1', headers: auth })
          .then(
            (answer) =>
              `${answer.status} ${(JSON.parse(answer.text) as { code: string }).code} ${String(answer.headers['retry-after'])}`,
            () => 'closed',
          )
        // HAProxy refuses the connection; nginx answers as the service does when it is full.
        expect(third).to.equal(name === 'haproxy' ? 'closed' : '503 unavailable 1')
        expect(
          (await client('127.0.0.3').send({ path: '/v1/pets?limit=1', headers: auth })).status,
        ).to.equal(200)
      } finally {
        for (const socket of held) socket.destroy()
      }
    })

    it('a create the proxy retries elsewhere is stored once; one without Idempotency-Key is not retried', async () => {
      // An instance that stored the pet and whose answer was lost: the proxy sees a closed connection.
      const relays = await startRelays(instances.map((instance) => instance.port))
      const relayed = await startProxy(name, {
        port: await freePort(),
        instancePorts: relays.ports,
        perClient: 100,
      })
      try {
        const creator = client('127.0.0.4', relayed.port)
        relays.dropNextPostAnswer()
        const keyed = await creator.send(createCall('Keyed', 'deploy-retry-1'))
        expect(relays.dropped()).to.equal(1)
        expect([keyed.status, keyed.headers['idempotent-replayed']]).to.deep.equal([201, 'true'])

        // Without a key the proxy never retries: the client learns that the outcome is unknown (on
        // a kept-alive connection HAProxy closes it without an answer, as HTTP allows).
        const outcomeOf = (answer: { status: number }) => answer.status
        relays.dropNextPostAnswer()
        const again = await creator.send(createCall('Unkeyed')).then(outcomeOf, () => 'closed')
        expect(again).to.equal(name === 'haproxy' ? 'closed' : 502)
        // Both instances just failed once: nginx leaves each out for fail_timeout (2 s, counted
        // in whole seconds, so up to 3).
        await new Promise((resolve) => setTimeout(resolve, 3100))
        relays.dropNextPostAnswer()
        const fresh = await client('127.0.0.5', relayed.port).send(createCall('Unkeyed'))
        expect([fresh.status, relays.dropped()]).to.deep.equal([502, 3])

        // Each stored once, by the instance whose answer was lost (read from an instance: the
        // proxy may still count the relays' closes against them).
        const list = await (instances[0] as ServiceProcess).request({
          path: '/v1/pets?limit=100',
          headers: auth,
        })
        const names = (JSON.parse(list.text) as Array<{ name: string }>).map((pet) => pet.name)
        expect(names.sort()).to.deep.equal(['Keyed', 'Unkeyed', 'Unkeyed'])
      } finally {
        await relayed.stop()
        await relays.close()
      }
    })

    it('a rolling restart under load loses no request', async () => {
      const workers = [2, 3, 4, 5].map((n) => client(`127.0.0.${n}`))
      const outcomes: Array<number | string> = []
      let running = true
      const load = workers.map(async (worker, w) => {
        // Bounded by the restart's end, and by a count.
        for (let i = 0; running && i < 5000; i++) {
          const call =
            i % 20 === 0
              ? createCall(`Load ${w}.${i}`, `load-${w}-${i}`)
              : { path: '/v1/pets?limit=1', headers: auth }
          outcomes.push(await worker.send(call).then((answer) => answer.status, String))
        }
      })
      try {
        if (proxy.statsPort !== undefined)
          expect(await haproxyStatuses(proxy.statsPort)).to.deep.equal({ app1: 'UP', app2: 'UP' })
        for (let i = 0; i < instances.length; i++) {
          expect(await restart(instances, i, env)).to.equal(0)
          const back = instances[i] as ServiceProcess
          // Back in the proxy's rotation, as HAProxy's stats page says and as the load shows.
          if (proxy.statsPort !== undefined) await untilUp(proxy.statsPort, `app${i + 1}`)
          await until(
            `${name} to send requests to the restarted instance`,
            () => requestLines(back).length > 0,
          )
        }
      } finally {
        running = false
        await Promise.all(load)
      }
      expect(outcomes.filter((outcome) => outcome !== 200 && outcome !== 201)).to.deep.equal([])
      expect(outcomes.length).to.be.greaterThan(100)
    })
  })
