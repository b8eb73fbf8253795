/**
 * Sustained creates on several service processes sharing one database: starts N instances of
 * the service (loopback only) on P pre-seeded pets, drives C concurrent creates for S seconds
 * spread over them, then checks every answer against the database and reports the figures.
 *
 *   npx tsx test/load/sustained-creates.ts --instances 3 --concurrency 150 --seconds 20 --seed 10000
 *
 * Uses MONGODB_URI when set (a fresh database in it, dropped at the end), else starts the
 * FerretDB test server and stops it. Every process it starts is stopped by its pid.
 */
import { randomBytes } from 'node:crypto'
import { pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'
import { MongoClient } from 'mongodb'
import { freshDatabaseName, uriWithDatabase } from '../support/mongo.js'
import { startService, type ServiceProcess } from '../support/service-process.js'
import { driveCreates } from './drive-creates.js'
import { seedPets, withDatabaseServer } from './load-database.js'
import { summarise, type LoadReport } from './load-report.js'
import { cpuBetween, cpuMsOf } from './process-cpu.js'
import { verifyCreates } from './verify-creates.js'

export type SustainedCreatesOptions = {
  readonly instances: number
  readonly concurrency: number
  readonly seconds: number
  readonly seed: number
  /** A server to use (a fresh database in it); else the FerretDB test server is started. */
  readonly mongodbUri?: string
  readonly storeTimeoutMs?: number
}

const stopService = async (service: ServiceProcess) => {
  const timer = setTimeout(() => service.process.kill('SIGKILL'), 15_000)
  await service.stop()
  clearTimeout(timer)
}

export const runSustainedCreates = (options: SustainedCreatesOptions): Promise<LoadReport> =>
  withDatabaseServer(options.mongodbUri, async (serverUri, databasePid) => {
    const uri = uriWithDatabase(serverUri, freshDatabaseName())
    const client = await new MongoClient(uri, { useBigInt64: true }).connect()
    const db = client.db()
    const services: ServiceProcess[] = []
    try {
      await seedPets(db, options.seed)
      const env = {
        MONGODB_URI: uri,
        STORE_TIMEOUT_MS: String(options.storeTimeoutMs ?? 2000),
        LOG_LEVEL: 'warn',
      }
      for (let i = 0; i < options.instances; i++) services.push(await startService(env))
      const prefix = `load-${randomBytes(4).toString('hex')}`
      const pids = [...services.map((s) => s.process.pid), databasePid]
      const cpuBefore = pids.map(cpuMsOf)
      const loadBefore = process.cpuUsage()
      const answers = await driveCreates({
        ports: services.map((s) => s.port),
        concurrency: options.concurrency,
        seconds: options.seconds,
        prefix,
      })
      const loadCpu = process.cpuUsage(loadBefore)
      const cpuAfter = pids.map(cpuMsOf)
      const cpuMs = {
        services: cpuBetween(cpuBefore.slice(0, -1), cpuAfter.slice(0, -1)),
        database: cpuBetween(cpuBefore.slice(-1), cpuAfter.slice(-1)),
        load: (loadCpu.user + loadCpu.system) / 1000,
      }
      await Promise.all(services.map(stopService))
      if (process.env.LOAD_DEBUG)
        for (const s of services) console.error(s.output.slice(0, 20).join('\n'))
      services.splice(0)
      const verdict = await verifyCreates(db, prefix, answers)
      return summarise(options, answers, verdict, cpuMs)
    } finally {
      await Promise.all(services.map(stopService))
      await db.dropDatabase().catch(() => undefined)
      await client.close()
    }
  })

const cli = async () => {
  const { values } = parseArgs({
    options: {
      instances: { type: 'string', default: '3' },
      concurrency: { type: 'string', default: '150' },
      seconds: { type: 'string', default: '20' },
      seed: { type: 'string', default: '10000' },
      'store-timeout-ms': { type: 'string', default: '2000' },
    },
  })
  const report = await runSustainedCreates({
    instances: Number(values.instances),
    concurrency: Number(values.concurrency),
    seconds: Number(values.seconds),
    seed: Number(values.seed),
    storeTimeoutMs: Number(values['store-timeout-ms']),
    ...(process.env.MONGODB_URI ? { mongodbUri: process.env.MONGODB_URI } : {}),
  })
  console.log(JSON.stringify(report, null, 2))
  process.exitCode = report.ok ? 0 : 1
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await cli()
