/**
 * `--mongodb`: the listing's latency on the FerretDB test server at 1,000, 10,000 and 100,000
 * stored pets, one request at a time, through the service and, for comparison, the same query
 * through the driver alone (the test server's part). `--creates <command>` then runs a
 * sustained-creates runner (test/load/sustained-creates.ts, from the ids work) with MONGODB_URI.
 */
import { execFileSync, execSync } from 'node:child_process'
import { rmSync } from 'node:fs'
import { MongoClient } from 'mongodb'
import { toDocument, type PetDocument } from '../adapters/mongodb/documents.js'
import { COUNTERS, PETS as COLLECTION } from '../adapters/mongodb/index.js'
import type { NewPet } from '../core/index.js'
import { API_KEY, petNumber } from './peers/store.mjs'
import { median } from './report.js'
import { SERVICE, startServer } from './servers.js'

const SIZES = [1_000, 10_000, 100_000]
const REQUESTS = 30

/** Times `a` and `b` alternately, one call at a time, so that both see the same server state. */
const interleaved = async (times: number, a: () => Promise<unknown>, b: () => Promise<unknown>) => {
  const ms: [number[], number[]] = [[], []]
  for (let i = 0; i < times; i++)
    for (const [k, once] of [a, b].entries()) {
      const started = performance.now()
      await once()
      ms[k]?.push(performance.now() - started)
    }
  return ms.map((m) => {
    m.sort((x, y) => x - y)
    return { p50: median(m), p99: m[Math.ceil(m.length * 0.99) - 1] as number }
  }) as [{ p50: number; p99: number }, { p50: number; p99: number }]
}

/** A fresh FerretDB test server on a free loopback port; `stop` ends it by its pid. */
export const startFerretDb = () => {
  const out = execFileSync('test/ferretdb/start.sh', { encoding: 'utf8' })
  const value = (name: string) => new RegExp(`^${name}=(.*)$`, 'm').exec(out)?.[1] as string
  return {
    /** Ends in `/`: append a database name. */
    uri: value('MONGODB_URI'),
    stop: () => {
      execFileSync('test/ferretdb/stop.sh', [value('FERRETDB_PID')], { stdio: 'inherit' })
      rmSync(value('FERRETDB_DATA'), { recursive: true, force: true })
    },
  }
}

export const mongodb = async (log: (m: string) => void, creates?: string): Promise<string[]> => {
  const ferret = startFerretDb()
  const uri = `${ferret.uri}bench_listing`
  const lines = [
    '## MongoDB (FerretDB test server, unpinned)',
    '',
    `\`GET /v1/pets?status=available&limit=20&after=<middle id>\`, ${REQUESTS} requests one at a time through the service, each followed by the same query (limit 21) through the driver alone ("driver").`,
    '',
    '| pets stored | service p50 ms | service p99 ms | driver p50 ms | driver p99 ms |',
    '| --- | --- | --- | --- | --- |',
  ]
  const client = new MongoClient(uri, { useBigInt64: true })
  // The default 2 s store timeout would turn a slow listing into a 503: time the real answer.
  const server = await startServer(SERVICE, { MONGODB_URI: uri, STORE_TIMEOUT_MS: '60000' })
  try {
    const pets = client.db().collection<PetDocument>(COLLECTION)
    let stored = 0
    for (const size of SIZES) {
      for (; stored < size; stored += 1000) {
        const ids = Array.from({ length: Math.min(1000, size - stored) }, (_, i) => stored + i + 1)
        await pets.insertMany(
          ids.map((id) => toDocument(petNumber(id) as unknown as NewPet, BigInt(id), 'bench')),
        )
      }
      await client
        .db()
        .collection<{ _id: string; seq: bigint }>(COUNTERS)
        .updateOne({ _id: 'pets' }, { $max: { seq: BigInt(size) } }, { upsert: true })
      log(`mongodb: ${size} pets stored`)
      const after = size / 2
      const url = `http://127.0.0.1:${server.port}/v1/pets?status=available&limit=20&after=${after}`
      const get = async () => {
        const res = await fetch(url, { headers: { authorization: `Bearer ${API_KEY}` } })
        if (res.status !== 200) throw new Error(`listing answered ${res.status}`)
        await res.arrayBuffer()
      }
      const query = () =>
        pets
          .find({ status: 'available', _id: { $gt: BigInt(after) } }, { projection: { _op: 0 } })
          .sort({ _id: 1 })
          .limit(21)
          .toArray()
      await interleaved(2, get, query)
      const [viaService, viaDriver] = await interleaved(REQUESTS, get, query)
      const f = (n: number) => n.toFixed(1)
      lines.push(
        `| ${size.toLocaleString('en-US')} | ${f(viaService.p50)} | ${f(viaService.p99)} | ${f(viaDriver.p50)} | ${f(viaDriver.p99)} |`,
      )
    }
    if (creates !== undefined)
      lines.push(
        '',
        '### Creates',
        '',
        '```',
        execSync(creates, { encoding: 'utf8', env: { ...process.env, MONGODB_URI: uri } }),
        '```',
      )
  } finally {
    await server.stop()
    await client.close()
    ferret.stop()
  }
  return lines
}
