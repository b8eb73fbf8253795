import { getHeapStatistics } from 'node:v8'
import { HTTP_LIMIT_DEFAULTS } from '../../adapters/koa/index.js'

/**
 * The heap one pet of the in-memory store takes at the worst case: a keyed create (its record of
 * the longest Idempotency-Key, held for the key's window) of the longest name in 4-byte
 * characters, the largest category id and a status. Measured by bench/heap-per-pet.ts,
 * with a margin (bench/HISTORY.md); reads add nothing per pet (adapters/koa/app/json/pet-json.ts).
 * The idempotency store holds at most as many keys as pets (storage.ts), so they fit in it too.
 */
export const HEAP_PER_PET_BYTES = 3300

/** The heap kept for code, connections and caches, besides the pets and the work in flight. */
export const HEAP_BASE_BYTES = 64 * 2 ** 20

/**
 * The default budget of the bytes that work in flight holds (MAX_IN_FLIGHT_BYTES). With the base,
 * the heap kept for everything but the pets: the pets that fit are counted beside the budget.
 */
export const IN_FLIGHT_DEFAULT_BYTES: number = HTTP_LIMIT_DEFAULTS.maxInFlightBytes

/** The heap this process may grow to (`--max-old-space-size` and the young generation). */
export const heapLimitBytes = (): number => getHeapStatistics().heap_size_limit

/** How many pets fit in a heap of this size at the worst case, beside the work in flight. */
export const petsThatFit = (heapLimit: number, inFlight = IN_FLIGHT_DEFAULT_BYTES): number =>
  Math.max(0, Math.floor((heapLimit - HEAP_BASE_BYTES - inFlight) / HEAP_PER_PET_BYTES))

const mb = (bytes: number) => `${Math.round(bytes / 2 ** 20)} MB`

/** Two sizes in MB, or in bytes when whole MB would show a larger one as equal to a smaller. */
const sizes = (a: number, b: number): readonly [string, string] =>
  a !== b && mb(a) === mb(b) ? [`${a} bytes`, `${b} bytes`] : [mb(a), mb(b)]

/** Why `maxPets` cannot be held in this heap beside `inFlight`, or undefined when it can. */
export const heapShortfall = (
  maxPets: number,
  heapLimit: number,
  inFlight = IN_FLIGHT_DEFAULT_BYTES,
): string | undefined => {
  const fit = petsThatFit(heapLimit, inFlight)
  const reserve = HEAP_BASE_BYTES + inFlight
  const [needs, has] = sizes(maxPets * HEAP_PER_PET_BYTES + reserve, heapLimit)
  return maxPets <= fit
    ? undefined
    : `MAX_PETS ${maxPets} needs ${needs} of heap at the worst case (${HEAP_PER_PET_BYTES} bytes a pet and ${mb(reserve)}), but this process has ${has} (heap_size_limit): at most ${fit} pets fit; lower MAX_PETS or MAX_IN_FLIGHT_BYTES, or give node a larger heap (--max-old-space-size, in NODE_OPTIONS)`
}
