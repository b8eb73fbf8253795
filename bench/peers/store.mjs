// The 10,000 pets every server starts with (the service is seeded with the same ones over HTTP).
export const NAMES = [
  'Rex',
  'Bella',
  'Max',
  'Luna',
  'Charlie',
  'Lucy',
  'Cooper',
  'Daisy',
  'Milo',
  'Bailey',
]
export const STATUSES = ['available', 'pending', 'sold']
export const API_KEY = 'bench-key-0123456789abcdef'
export const PETS = 10_000
/**
 * The interface's page sizes and longest name, as the peers check them. A peer shares no code
 * with the service it is measured against, so they are restated here, once, and
 * test/bench/peer-limits.test.ts holds them to the service's constants.
 */
export const LIMIT_DEFAULT = 20
export const LIMIT_MAX = 100
export const NAME_MAX_LENGTH = 200

/** Pet `i` (from 1): the same formula for the peers' stores and the service's seed. */
export const petNumber = (i) => ({
  name: NAMES[i % NAMES.length],
  categoryId: (i % 7) + 1,
  status: STATUSES[i % 3],
})

export const makePets = (n = PETS) =>
  Array.from({ length: n }, (_, i) => ({ id: i + 1, ...petNumber(i + 1) }))
