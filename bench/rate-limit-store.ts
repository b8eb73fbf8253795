/**
 * What a rate limit shared through the store would cost, against the per-instance one:
 *
 *   npx tsx bench/rate-limit-store.ts [--mongodb-uri mongodb://host:port/]
 *
 * The shared form is the cheapest one that is correct across instances: one atomic
 * findOneAndUpdate ($inc on a per-key, per-second counter, upserted) per request. The local form
 * is the service's token bucket. Both run the same number of operations, one key.
 */
import { performance } from 'node:perf_hooks'
import { MongoClient } from 'mongodb'
import { createBuckets } from '../adapters/koa/app/token-bucket.js'
import { startFerretDb } from './mongo.js'

const SEQUENTIAL = 2000
const CONCURRENT = 5000
const IN_FLIGHT = 32

const quantile = (sorted: number[], q: number) => sorted[Math.floor(q * (sorted.length - 1))] ?? 0
const fmt = (ms: number) => `${(ms * 1000).toFixed(1)} µs`

const local = () => {
  const buckets = createBuckets({ ratePerSecond: 1e6, burst: 1e6, maxBuckets: 10_000 })
  const n = 1_000_000
  const started = performance.now()
  for (let i = 0; i < n; i++) buckets.take('key-0123abcd', performance.now())
  return (performance.now() - started) / n
}

const shared = async (uri: string) => {
  const client = await new MongoClient(uri, { writeConcern: { w: 'majority' } }).connect()
  const windows = client.db().collection<{ _id: string; n: number }>('rate_windows')
  const once = () =>
    windows.findOneAndUpdate(
      { _id: `key-0123abcd:${Math.floor(Date.now() / 1000)}` },
      { $inc: { n: 1 } },
      { upsert: true, returnDocument: 'after' },
    )
  // Two upserts of a new window can race; the loser retries and finds the winner's document.
  const hit = () =>
    once().catch((error: { code?: number }) =>
      error.code === 11000 ? once() : Promise.reject(error),
    )
  try {
    for (let i = 0; i < 100; i++) await hit() // warm-up
    const latencies: number[] = []
    for (let i = 0; i < SEQUENTIAL; i++) {
      const t = performance.now()
      await hit()
      latencies.push(performance.now() - t)
    }
    latencies.sort((a, b) => a - b)
    let next = 0
    const started = performance.now()
    await Promise.all(
      Array.from({ length: IN_FLIGHT }, async () => {
        while (next++ < CONCURRENT) await hit()
      }),
    )
    const perSecond = CONCURRENT / ((performance.now() - started) / 1000)
    await client.db().dropDatabase()
    return { p50: quantile(latencies, 0.5), p99: quantile(latencies, 0.99), perSecond }
  } finally {
    await client.close()
  }
}

const uriArg = process.argv.indexOf('--mongodb-uri')
const ferret = uriArg < 0 ? startFerretDb() : undefined
try {
  // A server URI ending in `/`, to which the database name is appended.
  const base = uriArg < 0 ? (ferret as { uri: string }).uri : (process.argv[uriArg + 1] as string)
  const perTake = local()
  const store = await shared(`${base}rate_limit_bench_${process.pid}`)
  console.log(`per-instance token bucket: ${fmt(perTake)} per request (1e6 takes)`)
  console.log(
    `shared counter in the store: p50 ${fmt(store.p50)}, p99 ${fmt(store.p99)} per request (${SEQUENTIAL} sequential); ` +
      `${Math.round(store.perSecond)} requests/s at most with ${IN_FLIGHT} in flight`,
  )
} finally {
  ferret?.stop()
}
