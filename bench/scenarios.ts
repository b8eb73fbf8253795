import type { LoadSpec } from './load.js'

/** Pets stored before measuring, through the API itself (statuses cycle, a quarter have none). */
export const SEED_PETS = 10_000

export type Scenario = {
  readonly name: string
  readonly load: Pick<LoadSpec, 'method' | 'path' | 'newPet' | 'randomIdUpTo'>
  readonly expect: number
  /**
   * Creates pets. It runs on a second instance of each implementation, so that the instance the
   * reads run on keeps exactly the seeded pets, and its memory shows leaks, not a growing store.
   */
  readonly writes?: boolean
}

export const SCENARIOS: ReadonlyArray<Scenario> = [
  { name: 'GET /pets?limit=20', load: { method: 'GET', path: '/v1/pets?limit=20' }, expect: 200 },
  {
    name: 'GET /pets?status=available&limit=20',
    load: { method: 'GET', path: '/v1/pets?status=available&limit=20' },
    expect: 200,
  },
  {
    name: 'GET /pets/{id}',
    load: { method: 'GET', path: '/v1/pets/{id}', randomIdUpTo: SEED_PETS },
    expect: 200,
  },
  {
    name: 'POST /pets',
    load: { method: 'POST', path: '/v1/pets', newPet: true },
    expect: 201,
    writes: true,
  },
]

export const SEED: Scenario = {
  name: 'seed',
  load: { method: 'POST', path: '/v1/pets', newPet: true },
  expect: 201,
}
