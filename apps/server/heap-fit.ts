import { getHeapStatistics } from 'node:v8'

/**
 * The heap one pet of the in-memory store takes at the worst case: a keyed create (its record of
 * the longest Idempotency-Key, held for the key's window) of the longest name in 4-byte
 * characters, the largest category id and a status. Measured by bench/heap-per-pet.ts,
 * with a margin (bench/HISTORY.md); reads add nothing per pet (adapters/koa/app/json/pet-json.ts).
 * The idempotency store holds at most as many keys as pets (storage.ts), so they fit in it too.
 */
export const HEAP_PER_PET_BYTES = 3300

/** The heap kept for everything but the pets: code, connections, requests under way, caches. */
export const HEAP_RESERVE_BYTES = 96 * 2 ** 20

/** The heap this process may grow to (`--max-old-space-size` and the young generation). */
export const heapLimitBytes = (): number => getHeapStatistics().heap_size_limit

/** How many pets fit in a heap of this size at the worst case. */
export const petsThatFit = (heapLimit: number): number =>
  Math.max(0, Math.floor((heapLimit - HEAP_RESERVE_BYTES) / HEAP_PER_PET_BYTES))

const mb = (bytes: number) => `${Math.round(bytes / 2 ** 20)} MB`

/** Why `maxPets` cannot be held in this heap, or undefined when it can. */
export const heapShortfall = (maxPets: number, heapLimit: number): string | undefined =>
  maxPets <= petsThatFit(heapLimit)
    ? undefined
    : `MAX_PETS ${maxPets} needs ${mb(maxPets * HEAP_PER_PET_BYTES + HEAP_RESERVE_BYTES)} of heap at the worst case (${HEAP_PER_PET_BYTES} bytes a pet and ${mb(HEAP_RESERVE_BYTES)}), but this process has ${mb(heapLimit)} (heap_size_limit): at most ${petsThatFit(heapLimit)} pets fit; lower MAX_PETS, or give node a larger heap (--max-old-space-size, in NODE_OPTIONS)`
