import { PerformanceObserver, performance, type PerformanceEntry } from 'node:perf_hooks'
import { createInMemoryIdempotencyStore } from '../../adapters/in-memory/index.js'
import type { IdempotencyKey, IdempotencyScope } from '../../core/index.js'

/*
 * Run in a process of its own with one collector thread (in-memory/idempotency-purge.test.ts):
 * a store of KEYS idempotency keys takes 500 claims with nothing expired, then 500 with every
 * key expired (after 500 more that warm the purge up). Prints one JSON line: the most CPU time one claim took in each case, and how
 * many claims were measured without a collection.
 */
const keys = Number(process.argv[2] ?? '1000000')
const WINDOW_MS = 86_400_000
const scope = (i: number): IdempotencyScope => ({ keyId: 'k', key: `key-${i}` as IdempotencyKey })
const claimAt = (now: number) => ({ fingerprint: 'f', leaseUntil: now, expiresAt: now + WINDOW_MS })

const store = createInMemoryIdempotencyStore()
for (let i = 0; i < keys; i++) void store.claimKey(scope(i), claimAt(i % 1000), i % 1000)

/**
 * The most CPU time one of 500 claims at `now` took (each runs its share of the purge). A claim
 * during which V8 collected garbage is left out: a heap of a million entries is collected
 * whatever the purge does.
 */
const longestClaim = async (now: number, from: number) => {
  const collections: PerformanceEntry[] = []
  const observer = new PerformanceObserver((list) => collections.push(...list.getEntries()))
  observer.observe({ entryTypes: ['gc'] })
  const claims: { start: number; end: number; ms: number }[] = []
  for (let i = from; i < from + 500; i++) {
    const start = performance.now()
    const started = process.cpuUsage()
    void store.claimKey(scope(i), claimAt(now), now)
    const spent = process.cpuUsage(started)
    claims.push({ start, end: performance.now(), ms: (spent.user + spent.system) / 1000 })
  }
  await new Promise((resolve) => setTimeout(resolve, 50))
  observer.disconnect()
  const clean = claims.filter(
    (c) =>
      !collections.some((gc) => gc.startTime <= c.end && gc.startTime + gc.duration >= c.start),
  )
  return { ms: Math.max(...clean.map((c) => c.ms)), measured: clean.length }
}

// Past the once-a-minute sweep the store used to run, with nothing expired
const nothingExpired = await longestClaim(120_000, keys)
// The first claims that purge compile the purge's code (on V8's background threads, whose CPU
// time the process's counts): those are left out, as they happen once in a process's life.
await longestClaim(WINDOW_MS + 1000, keys + 500)
const allExpired = await longestClaim(WINDOW_MS + 1000, keys + 1000)
console.log(JSON.stringify({ nothingExpired, allExpired }))
