import { expect } from 'chai'
import * as E from 'fp-ts/lib/Either.js'
import { createServer, type AddressInfo } from 'node:net'
import {
  connectMongo,
  DEFAULT_DATABASE,
  InvalidMongoUri,
  mongoUriProblem,
} from '../../../adapters/mongodb/index.js'
import { connectionSettingsOf } from '../../../adapters/mongodb/connection-string.js'
import { freshDatabaseName, requireMongo, uriWithDatabase } from '../../support/mongo.js'
import { startTcpProxy } from '../../support/tcp-proxy.js'

const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const probe = createServer().once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo
      probe.close(() => resolve(port))
    })
  })

describe('MongoDB adapter: start-up', function () {
  this.timeout(30_000)

  it('connects to a database that comes up after it started trying', async function () {
    const target = new URL(requireMongo(this))
    const uri = new URL(target)
    uri.host = `127.0.0.1:${await freePort()}`
    const database = freshDatabaseName()
    const failures: string[] = []
    const connecting = connectMongo({
      uri: uriWithDatabase(uri.toString(), database),
      timeoutMs: 300,
      startupTimeoutMs: 15_000,
      onRetry: (error) => failures.push(String(error)),
    })
    // Nothing listens there yet: the first pings are refused.
    await new Promise((resolve) => setTimeout(resolve, 1500))
    const proxy = await startTcpProxy(Number(target.port), Number(uri.port))
    try {
      const storage = await connecting
      try {
        expect(E.isRight(await storage.checkReadiness()())).to.equal(true)
      } finally {
        await storage.db.dropDatabase()
        await storage.close()
      }
    } finally {
      await proxy.close()
    }
    expect(failures.length).to.be.greaterThan(0)
    // The real cause each time, never the driver's "Topology is closed".
    for (const failure of failures) expect(failure).not.to.match(/topology is closed/i)
  })

  it('gives up at the start-up deadline, each ping cut to what is left of it', async () => {
    const port = await freePort()
    const failures: string[] = []
    const started = Date.now()
    const error = await connectMongo({
      uri: `mongodb://127.0.0.1:${port}/startup`,
      // A ping waits this long for a refused server; the second has only 300 ms left.
      timeoutMs: 700,
      startupTimeoutMs: 1000,
      onRetry: (e) => failures.push(String(e)),
    }).then(
      () => expect.fail('connected to a closed port'),
      (e: unknown) => e,
    )
    const took = Date.now() - started
    expect(String(error)).to.include('ECONNREFUSED')
    expect(failures.length).to.be.greaterThan(0)
    expect(took).to.be.within(1000, 1000 + 500)
  })

  it('asks for majority writes, majority reads and the primary (so every instance reads what one acknowledged)', async function () {
    const storage = await connectMongo({
      uri: uriWithDatabase(requireMongo(this), freshDatabaseName()),
      timeoutMs: 2000,
      startupTimeoutMs: 10_000,
    })
    try {
      expect(storage.db.writeConcern?.w).to.equal('majority')
      expect(storage.db.readConcern?.level).to.equal('majority')
      expect(storage.db.readPreference.mode).to.equal('primary')
    } finally {
      await storage.db.dropDatabase()
      await storage.close()
    }
  })
})

describe('MongoDB adapter: a connection string that can never work', () => {
  for (const [uri, problem] of [
    ['notaurl', /Invalid scheme/],
    ['mongodb://127.0.0.1:9/bad.name', /the database name "bad.name" is not one MongoDB accepts/],
    ['mongodb://127.0.0.1:9/x?maxPoolSize=0', /maxPoolSize must be a whole number from 1/],
    ['mongodb://127.0.0.1:9/x?maxPoolSize=abc', /maxPoolSize/],
    ['mongodb://127.0.0.1:9/x?foo=bar', /option foo is not supported/],
    // The driver itself refuses these only when it first connects.
    [
      'mongodb://127.0.0.1:9/x?minPoolSize=20&maxPoolSize=5',
      /minPoolSize \(20\) must not be above maxPoolSize \(5\)/,
    ],
    ['mongodb://127.0.0.1:9/x?minPoolSize=9', /maxPoolSize \(8, the default here\)/],
    ['mongodb://127.0.0.1:9/a%zz', /./],
  ] as const)
    it(`refuses ${uri} at once, without waiting it out as an outage`, async () => {
      expect(mongoUriProblem(uri)).to.match(problem)
      let retries = 0
      const started = Date.now()
      const error = await connectMongo({
        uri,
        timeoutMs: 300,
        startupTimeoutMs: 30_000,
        onRetry: () => retries++,
      }).then(
        () => undefined,
        (e: unknown) => e,
      )
      expect(error).to.be.instanceOf(InvalidMongoUri)
      expect(retries).to.equal(0)
      expect(Date.now() - started).to.be.below(1000)
    })

  it('takes the usual forms', () => {
    for (const uri of [
      'mongodb://127.0.0.1:27017',
      'mongodb://127.0.0.1:27017/animal_store',
      'mongodb://user:p%40ss@a.example:27017,b.example:27018/pets?replicaSet=rs0&maxPoolSize=16',
      'mongodb+srv://cluster.example/pets',
      'mongodb://127.0.0.1:27017/pets?minPoolSize=8',
      'mongodb://127.0.0.1:27017/pets?minPoolSize=16&maxPoolSize=16',
    ])
      expect(mongoUriProblem(uri), uri).to.equal(undefined)
  })
})

describe('MongoDB adapter: the connection string as the driver reads it', () => {
  it('takes the database from the path, ours when there is none (not the driver default)', () => {
    expect(connectionSettingsOf('mongodb://127.0.0.1:27017').database).to.equal(DEFAULT_DATABASE)
    expect(connectionSettingsOf('mongodb://127.0.0.1:27017/').database).to.equal(DEFAULT_DATABASE)
    expect(connectionSettingsOf('mongodb://127.0.0.1:27017/test').database).to.equal('test')
    expect(connectionSettingsOf('mongodb://a:1,b:2/p%65ts?replicaSet=rs0').database).to.equal(
      'pets',
    )
  })

  it('takes maxPoolSize when the string gives it, whatever its case, even at the driver default', () => {
    const pool = (uri: string) => connectionSettingsOf(uri).maxPoolSize
    expect(pool('mongodb://127.0.0.1:27017/x')).to.equal(undefined)
    expect(pool('mongodb://127.0.0.1:27017/x?maxPoolSize=100')).to.equal(100)
    expect(pool('mongodb://127.0.0.1:27017/x?MAXPOOLSIZE=16&minPoolSize=2')).to.equal(16)
    expect(connectionSettingsOf('mongodb://h/x?minPoolSize=2').minPoolSize).to.equal(2)
  })
})
