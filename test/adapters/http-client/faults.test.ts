import { execFileSync } from 'node:child_process'
import { rmSync } from 'node:fs'
import { expect } from 'chai'
import { MongoClient } from 'mongodb'
import type { Pet } from '../../../core/index.js'
import { freshDatabaseName, requireMongo, uriWithDatabase } from '../../support/mongo.js'
import { startService, type ServiceProcess } from '../../support/service-process.js'
import { countingClient } from './support.js'

type FerretDb = { readonly uri: string; readonly pid: string; readonly data: string }

/** A FerretDB of this test's own (the shared one stays up), optionally on a port and data dir. */
const startFerretDb = (port = '', data = ''): FerretDb => {
  const out = execFileSync(
    'test/ferretdb/start.sh',
    [port, data].filter((a) => a !== ''),
    {
      encoding: 'utf8',
    },
  )
  const vars = Object.fromEntries(
    out
      .trim()
      .split('\n')
      .map((l) => l.split(/=(.*)/s)),
  )
  return { uri: vars.MONGODB_URI, pid: vars.FERRETDB_PID, data: vars.FERRETDB_DATA }
}
const portOf = (uri: string) => new URL(uri).port
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms))

/**
 * Concurrent creates through the worst a deployment does: the database killed (kill -9) and
 * restarted on its port and data, then the service restarted by SIGTERM on its port. Every call
 * must end with its pet, and the database must hold exactly one pet per call.
 */
describe('the client through a database kill and a service restart', function () {
  this.timeout(180_000)
  let db: FerretDb | undefined
  let service: ServiceProcess | undefined

  before(function () {
    requireMongo(this) // the same condition as the other MongoDB suites (FerretDB is built)
    db = startFerretDb()
  })
  after(async () => {
    await service?.stop()
    if (db !== undefined) {
      execFileSync('test/ferretdb/stop.sh', [db.pid], { stdio: 'ignore' })
      rmSync(db.data, { recursive: true, force: true })
    }
  })

  it('settles every createPet once, with one stored pet per call', async () => {
    const started = db as FerretDb
    const database = freshDatabaseName()
    const env = { MONGODB_URI: uriWithDatabase(started.uri, database), STORE_TIMEOUT_MS: '1000' }
    service = await startService(env)
    const port = service.port
    const { client, sent } = countingClient(port, {
      timeoutMs: 3000,
      budget: { attempts: 200, totalMs: 120_000, baseDelayMs: 50, maxDelayMs: 1000 },
    })
    const calls: Array<Promise<Pet>> = []
    let launching = true
    const launch = (async () => {
      for (let i = 0; launching || i < 20; i++) {
        calls.push(client.createPet({ name: `call ${i}`, categoryId: BigInt(i + 1) }))
        await sleep(50)
      }
    })()

    await sleep(300)
    process.kill(Number(started.pid), 'SIGKILL')
    await sleep(1000)
    db = startFerretDb(portOf(started.uri), started.data)
    await sleep(1500)
    await service.stop()
    service = await startService({ ...env, PORT: String(port) })
    await sleep(500)
    launching = false
    await launch

    const settled = await Promise.allSettled(calls)
    const failed = settled.filter((s) => s.status === 'rejected').map((s) => String(s.reason))
    expect(failed).to.deep.equal([])
    const pets = settled.map((s) => (s as PromiseFulfilledResult<Pet>).value)
    expect(pets.map((p) => p.name)).to.deep.equal(calls.map((_, i) => `call ${i}`))
    expect(sent.length, 'some calls were retried').to.be.above(calls.length)

    const mongo = await new MongoClient(db.uri, { useBigInt64: true }).connect()
    try {
      const stored = await mongo.db(database).collection('pets').find().toArray()
      expect(stored).to.have.length(calls.length)
      const storedIds = stored
        .map((d) => d._id as unknown as bigint)
        .sort((a, b) => (a < b ? -1 : 1))
      const returned = pets.map((p) => p.id).sort((a, b) => (a < b ? -1 : 1))
      expect(storedIds).to.deep.equal(returned)
    } finally {
      await mongo.db(database).dropDatabase()
      await mongo.close()
    }
  })
})
