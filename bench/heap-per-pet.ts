/**
 * `npx tsx bench/heap-per-pet.ts [pets]`: the heap each pet costs at the worst case (keyed
 * creates of the longest names in 4-byte characters, the longest Idempotency-Keys), after the
 * creates and after reading every page; the figure HEAP_PER_PET_BYTES (apps/server/heap-fit.ts)
 * is set from.
 */
import { tempKeyFile } from '../test/support/minted-keys.js'
import { fillWorstCase, startHeapService, stopAgent, walkAll } from '../test/load/heap-walk.js'

const pets = Number(process.argv[2] ?? 40_000)
const file = tempKeyFile()
const writer = (await file.mint(['pets:write'])).key
const reader = (await file.mint(['pets:read'])).key
const service = await startHeapService(
  { API_KEYS_FILE: file.path, MAX_PETS: String(pets), RATE_LIMIT: 'off' },
  4096,
)
try {
  const empty = await service.heapUsed()
  const created = await fillWorstCase(service.port, writer, pets)
  const afterCreates = await service.heapUsed()
  const read = await walkAll(service.port, reader)
  const afterWalk = await service.heapUsed()
  await walkAll(service.port, reader)
  const afterSecondWalk = await service.heapUsed()
  const per = (used: number) => Math.round((used - empty) / created)
  console.log(
    JSON.stringify({
      created,
      read,
      emptyMB: +(empty / 2 ** 20).toFixed(1),
      perPetAfterCreates: per(afterCreates),
      perPetAfterWalk: per(afterWalk),
      perPetAfterSecondWalk: per(afterSecondWalk),
    }),
  )
} finally {
  await service.stop()
  stopAgent()
  file.remove()
}
