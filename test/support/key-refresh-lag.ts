import { createHash } from 'node:crypto'
import { openSync, writeSync, closeSync } from 'node:fs'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import * as E from 'fp-ts/lib/Either.js'
import * as O from 'fp-ts/lib/Option.js'
import { createCachedApiKeys } from '../../adapters/in-memory/index.js'
import { createKeyFile } from '../../adapters/key-file/index.js'
import { longestTurn } from './longest-turn.js'

/*
 * Run in a process of its own (key-file/refresh-lag.test.ts): a key file of KEYS keys is read
 * by the cached keys of a service while the event loop's delay is measured. Prints one JSON
 * line: the lag's maximum, the full reads, and how long a check without a change took.
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
const api = createCachedApiKeys({
  bootstrap: [],
  load: (seen) => async () => {
    const read = await registry.readKeysIfChanged(seen)()
    if (E.isRight(read) && O.isSome(read.right)) fullReads++
    return read
  },
  now: () => now,
  refreshAfterMs: 2000,
  maxAgeMs: 4000,
})

await new Promise((resolve) => setTimeout(resolve, 200)) // the start-up's own work settles
const lag = monitorEventLoopDelay({ resolution: 1 })
lag.enable()
// The first request waits for the whole first read
const turns = await longestTurn(() => api.verifyApiKey(keyOf(keys - 1))())
lag.disable()
const found = turns.result
now = 5000 // past the maximum age: the check waits, and finds nothing changed
const started = performance.now()
await api.verifyApiKey(keyOf(keys - 1))()
const checkMs = performance.now() - started
const accepted = E.isRight(found) && O.isSome(found.right)
const { wallMs, cpuMs } = turns
console.log(
  JSON.stringify({ lagMaxMs: lag.max / 1e6, wallMs, cpuMs, fullReads, checkMs, accepted }),
)
