import { execFileSync } from 'node:child_process'
import { expect } from 'chai'
import type { Pet } from '../../core/index.js'
import { auth } from '../support/app.js'
import type { Reply } from '../support/http.js'
import { freshDatabaseName, requireMongo, uriWithDatabase } from '../support/mongo.js'
import { startService, type ServiceProcess } from '../support/service-process.js'

const json = { ...auth, 'Content-Type': 'application/json' }
const create = (service: ServiceProcess, i: number) =>
  service.request({
    method: 'POST',
    path: '/v1/pets',
    headers: json,
    body: `{"name":"pet ${i}","categoryId":${9007199254740993n + BigInt(i)},"status":"available"}`,
  })

const listAll = async (service: ServiceProcess, limit = 100): Promise<Pet[]> => {
  const pets: Pet[] = []
  let path: string | undefined = `/v1/pets?limit=${limit}`
  while (path !== undefined) {
    const reply: Reply = await service.request({ path, headers: auth })
    expect(reply.status).to.equal(200)
    pets.push(...(reply.json as Pet[]))
    path = /^<([^>]+)>; rel="next"$/.exec(String(reply.headers.link ?? ''))?.[1]
  }
  return pets
}

describe('service processes on one MongoDB', function () {
  this.timeout(120_000)
  let mongodbUri: string
  const running: ServiceProcess[] = []
  const start = async (env: Record<string, string> = {}) => {
    const service = await startService({
      MONGODB_URI: mongodbUri,
      STORE_TIMEOUT_MS: '1000',
      ...env,
    })
    running.push(service)
    return service
  }

  beforeEach(function () {
    mongodbUri = uriWithDatabase(requireMongo(this), freshDatabaseName())
  })
  afterEach(async () => {
    await Promise.all(running.splice(0).map((s) => s.stop()))
  })

  it('two instances take 300 concurrent creates: all 201, distinct ids, all readable through both', async () => {
    const [a, b] = await Promise.all([start(), start()])
    const replies = await Promise.all(
      Array.from({ length: 300 }, (_, i) =>
        create(i % 2 === 0 ? (a as ServiceProcess) : (b as ServiceProcess), i),
      ),
    )
    expect(replies.map((r) => r.status)).to.deep.equal(replies.map(() => 201))
    const created = replies.map((r) => r.json as Pet)
    expect(new Set(created.map((p) => p.id)).size).to.equal(300)
    for (const service of [a, b] as ServiceProcess[]) {
      const listed = await listAll(service, 37)
      expect(listed.map((p) => p.id)).to.deep.equal(
        created.map((p) => p.id).sort((x, y) => (x < y ? -1 : 1)),
      )
      const byId = new Map(listed.map((p) => [p.id, p]))
      for (const pet of created) expect(byId.get(pet.id)).to.deep.equal(pet)
      const sample = await Promise.all(
        created
          .slice(0, 50)
          .map((p) => service.request({ path: `/v1/pets/${p.id}`, headers: auth })),
      )
      expect(sample.map((r) => r.json)).to.deep.equal(created.slice(0, 50))
    }
  })

  it('keeps pets across a restart of the service, unchanged', async () => {
    const first = await start()
    const created = (await Promise.all(Array.from({ length: 20 }, (_, i) => create(first, i)))).map(
      (r) => r.json as Pet,
    )
    expect(await first.stop()).to.equal(0)
    const second = await start()
    const listed = await listAll(second)
    expect(listed).to.deep.equal([...created].sort((x, y) => (x.id < y.id ? -1 : 1)))
    const next = (await create(second, 99)).json as Pet
    expect(created.every((p) => p.id < next.id)).to.equal(true)
  })

  it('gives up on an unreachable database with a clear error', async () => {
    const started = Date.now()
    await startService({
      MONGODB_URI: 'mongodb://127.0.0.1:9/animal_store',
      STORE_TIMEOUT_MS: '300',
      STARTUP_TIMEOUT_MS: '1500',
    }).then(
      () => expect.fail('started without a database'),
      (error: Error) =>
        expect(error.message).to.match(/exited with 1[\s\S]*cannot reach the database/),
    )
    expect(Date.now() - started).to.be.below(15_000)
  })

  describe('when the database goes away', function () {
    before(function () {
      if (process.env.TEST_FERRETDB_PID === undefined) {
        if (process.env.CI === 'true')
          throw new Error('the outage test needs the FerretDB test server')
        console.warn(
          '!!! outage test skipped: it stops and restarts the test server, so it needs FerretDB, not MONGODB_URI',
        )
        this.skip()
      }
    })

    it('answers 503 with Retry-After in bounded time, /readyz 503, and recovers without a restart', async () => {
      const service = await start({ RETRY_AFTER_SECONDS: '3' })
      const before = (
        await Promise.all(Array.from({ length: 10 }, (_, i) => create(service, i)))
      ).map((r) => r.json as Pet)
      const port = new URL(mongodbUri).port
      execFileSync('test/ferretdb/stop.sh', [process.env.TEST_FERRETDB_PID as string])
      try {
        for (const req of [
          { path: '/v1/pets', headers: auth },
          { path: `/v1/pets/${before[0]?.id}`, headers: auth },
        ]) {
          const started = Date.now()
          const reply = await service.request(req)
          expect(Date.now() - started).to.be.below(5000)
          expect(reply.status).to.equal(503)
          expect(reply.headers['retry-after']).to.equal('3')
          expect(reply.json).to.deep.include({ code: 'unavailable' })
        }
        expect((await create(service, 100)).status).to.equal(503)
        expect((await service.request({ path: '/readyz' })).status).to.equal(503)
        expect((await service.request({ path: '/healthz' })).status).to.equal(200)
      } finally {
        const out = execFileSync(
          'test/ferretdb/start.sh',
          [port, process.env.TEST_FERRETDB_DATA as string],
          { encoding: 'utf8' },
        )
        process.env.TEST_FERRETDB_PID = /FERRETDB_PID=(\d+)/.exec(out)?.[1]
      }
      let ready: Reply | undefined
      for (let i = 0; i < 60 && ready?.status !== 200; i++) {
        await new Promise((r) => setTimeout(r, 250))
        ready = await service.request({ path: '/readyz' })
      }
      expect(ready?.status).to.equal(200)
      expect(await listAll(service)).to.deep.equal(before.sort((x, y) => (x.id < y.id ? -1 : 1)))
      expect((await create(service, 200)).status).to.equal(201)
    })
  })
})

describe('npm start with no configuration', function () {
  this.timeout(30_000)

  it('serves the in-memory store and prints a generated key that works', async () => {
    const service = await startService({ API_KEYS: '' })
    try {
      const key = / accepts the generated key (\S+)/.exec(service.stderr.join('\n'))?.[1]
      expect(key).to.match(/^[A-Za-z0-9_-]{32}$/)
      const reply = await service.request({
        path: '/v1/pets',
        headers: { Authorization: `Bearer ${key}` },
      })
      expect(reply.status).to.equal(200)
      expect((await service.request({ path: '/v1/pets', headers: auth })).status).to.equal(401)
    } finally {
      await service.stop()
    }
  })

  it('writes its request log in batches, yet the line of a lone request within a second, and the rest on exit', async () => {
    const service = await startService({})
    const logged = (msg: string) => service.output.some((line) => line.includes(`"msg":"${msg}"`))
    try {
      expect((await service.request({ path: '/v1/pets', headers: auth })).status).to.equal(200)
      const deadline = Date.now() + 1_000
      while (!logged('request') && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 20))
      expect(logged('request')).to.equal(true)
    } finally {
      await service.stop()
    }
    expect(logged('shutting down')).to.equal(true)
  })
})
