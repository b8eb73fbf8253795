import { createHash } from 'node:crypto'
import { openSync, writeSync, closeSync, readFileSync, statSync } from 'node:fs'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import * as E from 'fp-ts/lib/Either.js'
import * as O from 'fp-ts/lib/Option.js'
import { createCachedApiKeys } from '../../adapters/in-memory/index.js'
import { createKeyRing } from '../../adapters/in-memory/api-keys.js'
import { createKeyFile } from '../../adapters/key-file/index.js'
import { parseKeyFile } from '../../adapters/key-file/lines.js'
import { longestTurn } from './longest-turn.js'

/*
 * Run in a process of its own (key-file/refresh-lag.test.ts): a key file of KEYS keys is read
 * by the cached keys of a service while the event loop's turns are measured; then the same file
 * is read and indexed in one synchronous go, the work a turn would do if the read did not yield.
 * Prints one JSON line: the longest turn, the turns counted, that whole read's CPU time, the
 * full reads, and how long a check without a change took.
 */
const [path = '', count = '100000'] = process.argv.slice(2)
const keys = Number(count)
const keyOf = (i: number) => `key-number-${i}`
const digest = (key: string) => createHash('sha256').update(key).digest('hex')

const out = openSync(path, 'w', 0o600)
for (let i = 0; i < keys; i++) {
  const line = {
    id: `key-${i.toString(16).padStart(12, '0')}`,
    digest: digest(keyOf(i)),
    label: `client ${i}`,
    scopes: ['pets:read'],
    createdAt: '2026-01-01T00:00:00.000Z',
    expiresAt: i % 2 === 0 ? null : '2036-01-01T00:00:00.000Z',
    revokedAt: i % 10 === 0 ? '2026-02-01T00:00:00.000Z' : null,
  }
  writeSync(out, `${JSON.stringify(line)}\n`)
}
closeSync(out)

const registry = createKeyFile(path)
let now = 0
let fullReads = 0
const cachedKeys = () =>
  createCachedApiKeys({
    bootstrap: [],
    load: (seen) => async () => {
      const read = await registry.readKeysIfChanged(seen)()
      if (E.isRight(read) && O.isSome(read.right)) fullReads++
      return read
    },
    now: () => now,
    refreshAfterMs: 2000,
    maxAgeMs: 4000,
    // The first request drives the whole read and waits for it: the measure is the read's turns.
    waitMs: Infinity,
  })

await new Promise((resolve) => setTimeout(resolve, 200)) // the start-up's own work settles
const lag = monitorEventLoopDelay({ resolution: 1 })
lag.enable()
// The keys are created inside the measured work, as their first read starts at once; the first
// request waits for the whole of it.
const turns = await longestTurn(async () => {
  const api = cachedKeys()
  return { api, found: await api.verifyApiKey(keyOf(keys - 1))() }
})
lag.disable()
const { api, found } = turns.result
now = 5000 // past the maximum age: the check waits, and finds nothing changed
const started = performance.now()
await api.verifyApiKey(keyOf(keys - 1))()
const checkMs = performance.now() - started
const accepted = E.isRight(found) && O.isSome(found.right)
const { wallMs, cpuMs } = turns

const before = process.cpuUsage()
const whole = parseKeyFile(readFileSync(path, 'utf8'))
if (E.isRight(whole)) createKeyRing(whole.right)
const spent = process.cpuUsage(before)
const wholeCpuMs = (spent.user + spent.system) / 1000

console.log(
  JSON.stringify({
    lagMaxMs: lag.max / 1e6,
    wallMs,
    cpuMs,
    turns: turns.turns,
    fileBytes: statSync(path).size,
    wholeCpuMs,
    fullReads,
    checkMs,
    accepted,
  }),
)
