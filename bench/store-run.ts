/** One store's whole run: start, check, seed, warm up, then the rounds. */
import { differences, referenceAnswers } from './check.js'
import type { LoadSpec } from './load.js'
import { measure, MB, type Sample } from './measure.js'
import { bulkInsertPets, databaseUri } from './mongo.js'
import type { LargeListing, StoreRun } from './report.js'
import { SCENARIOS, SEED, SEED_PETS, type Scenario } from './scenarios.js'
import { IMPLEMENTATIONS, startServer, type Implementation, type Server } from './servers.js'

export type Settings = {
  readonly rounds: number
  readonly seconds: number
  readonly warmupSeconds: number
  readonly connections: number
  readonly pipelining: number
  readonly mongodbConnections: number
  readonly large: boolean
  readonly pin: boolean
}

/** Reads run on one instance, creates on another: see Scenario.writes. */
type Pair = { readonly reads: Server; readonly writes: Server }

export const KEY = 'bench-key-0123456789'

export const log = (message: string) =>
  console.error(`[${new Date().toISOString().slice(11, 19)}] ${message}`)

const perImpl = <A>(make: () => A): Record<Implementation, A> =>
  Object.fromEntries(IMPLEMENTATIONS.map((impl) => [impl, make()])) as Record<Implementation, A>

/** Measures, and turns every unexpected status, error or saturated load generator into a warning. */
const checked = async (
  settings: Settings,
  server: Server,
  scenario: Scenario,
  warnings: string[],
  overrides: Partial<LoadSpec> = {},
): Promise<Sample> => {
  const spec: LoadSpec = {
    ...scenario.load,
    port: server.port,
    key: KEY,
    connections: settings.connections,
    pipelining: settings.pipelining,
    seconds: settings.seconds,
    ...overrides,
  }
  const sample = await measure(server, spec, scenario.expect, settings.pin)
  const where = `${server.name}, ${scenario.name}`
  for (const problem of sample.problems) warnings.push(`${where}: ${problem}`)
  if (sample.loaderCpu >= 90)
    warnings.push(`${where}: autocannon used ${sample.loaderCpu}% of its core; it may be the limit`)
  if (sample.problems.length > 0) log(`WARNING ${where}: ${sample.problems.join('; ')}`)
  return sample
}

/** Each peer must answer like the service before its figures mean anything. */
const checkConformance = async (pairs: Map<Implementation, Pair>, warnings: string[]) => {
  const portOf = (impl: Implementation) => (pairs.get(impl) as Pair).reads.port
  const reference = await referenceAnswers(portOf('service'), KEY)
  for (const impl of IMPLEMENTATIONS.filter((i) => i !== 'service')) {
    const found = await differences(portOf(impl), KEY, reference, impl === 'node:http')
    for (const d of found) warnings.push(`${impl} answers unlike the service: ${d}`)
    log(
      `${impl}: ${found.length === 0 ? 'answers like the service' : `${found.length} DIFFERENCES`}`,
    )
  }
}

/**
 * The filtered, paged listing on the service at growing store sizes (bulk-seeded), one request
 * at a time so that it is the query's latency, not a queue's; a fixed number of requests,
 * because on a slow store a fixed duration may see none complete.
 */
const PER_ROUND = 10

const largeListing = async (
  settings: Settings,
  ferretUri: string,
  warnings: string[],
): Promise<LargeListing[]> => {
  const uri = databaseUri(ferretUri, 'bench_large')
  // The default 2 s store timeout would turn a slow listing into a 503: time the real answer.
  const env = { API_KEYS: KEY, MONGODB_URI: uri, STORE_TIMEOUT_MS: '60000' }
  const server = await startServer('service', env, settings.pin)
  const found: LargeListing[] = []
  try {
    let stored = 0
    for (const pets of [1_000, 10_000, ...(settings.large ? [100_000] : [])]) {
      const started = Date.now()
      await bulkInsertPets(uri, stored + 1, pets)
      stored = pets
      log(`large listing: ${pets} pets stored (${((Date.now() - started) / 1000).toFixed(1)} s)`)
      const path = `/v1/pets?status=available&limit=20&after=${pets / 2}`
      const scenario: Scenario = { name: path, load: { method: 'GET', path }, expect: 200 }
      const oneAtATime = { connections: 1, timeoutSeconds: 120, seconds: 600 }
      await checked(settings, server, scenario, warnings, { ...oneAtATime, amount: 3 })
      const samples: Sample[] = []
      for (let r = 0; r < settings.rounds; r++)
        samples.push(
          await checked(settings, server, scenario, warnings, { ...oneAtATime, amount: PER_ROUND }),
        )
      found.push({
        pets,
        p50: samples.map((s) => s.p50),
        p99: samples.map((s) => s.p99),
        unexpected: samples.map((s) => s.unexpected),
        requests: samples.length * PER_ROUND,
      })
    }
  } finally {
    await server.stop()
  }
  return found
}

export const runStore = async (
  settings: Settings,
  store: StoreRun['store'],
  ferretUri?: string,
): Promise<StoreRun> => {
  // FerretDB answers a listing in tenths of a second: 50 connections would only measure a queue.
  const load: Partial<LoadSpec> =
    ferretUri === undefined ? {} : { connections: settings.mongodbConnections }
  const run: StoreRun = {
    store,
    samples: Object.fromEntries(SCENARIOS.map((s) => [s.name, perImpl((): Sample[] => [])])),
    readsRssAfterRoundMB: perImpl((): number[] => []),
    writesRssAfterRoundMB: perImpl((): number[] => []),
    createdPerRound: perImpl((): number[] => []),
    warnings: [],
    notes: [],
    large: [],
  }
  if (ferretUri !== undefined)
    run.notes.push(
      `FerretDB (SQLite underneath) runs unpinned on the same two cores: these are end-to-end figures, each instance on a fresh database of its own, with ${settings.mongodbConnections} connections (--mongodb-connections).`,
    )
  const pairs = new Map<Implementation, Pair>()
  const start = async (impl: Implementation, role: keyof Pair) => {
    const env: Record<string, string> = { API_KEYS: KEY }
    if (ferretUri !== undefined)
      env.MONGODB_URI = databaseUri(ferretUri, `bench_${impl.replace(/\W/g, '_')}_${role}`)
    return startServer(impl, env, settings.pin)
  }
  const serverFor = (impl: Implementation, scenario: Scenario) => {
    const pair = pairs.get(impl) as Pair
    return scenario.writes === true ? pair.writes : pair.reads
  }
  try {
    for (const impl of IMPLEMENTATIONS)
      pairs.set(impl, { reads: await start(impl, 'reads'), writes: await start(impl, 'writes') })
    await checkConformance(pairs, run.warnings)
    for (const impl of IMPLEMENTATIONS) {
      const seed = { amount: SEED_PETS, connections: 10, seconds: 600 }
      await checked(settings, serverFor(impl, SEED), SEED, run.warnings, seed)
      log(`${impl}: ${SEED_PETS} pets stored; warming up`)
      for (const scenario of SCENARIOS) {
        const warmup = { ...load, seconds: settings.warmupSeconds }
        await checked(settings, serverFor(impl, scenario), scenario, run.warnings, warmup)
      }
    }
    for (let round = 0; round < settings.rounds; round++) {
      // Rotated each round, so that no implementation always goes first.
      const order = IMPLEMENTATIONS.map(
        (_, i) => IMPLEMENTATIONS[(i + round) % IMPLEMENTATIONS.length] as Implementation,
      )
      for (const scenario of SCENARIOS)
        for (const impl of order) {
          const sample = await checked(
            settings,
            serverFor(impl, scenario),
            scenario,
            run.warnings,
            load,
          )
          run.samples[scenario.name]?.[impl].push(sample)
          if (scenario.writes === true) run.createdPerRound[impl].push(sample.responses)
        }
      for (const [impl, pair] of pairs) {
        run.readsRssAfterRoundMB[impl].push(pair.reads.rssBytes() / MB)
        run.writesRssAfterRoundMB[impl].push(pair.writes.rssBytes() / MB)
      }
      log(`${store}: round ${round + 1} of ${settings.rounds} done`)
    }
    if (ferretUri !== undefined)
      run.large.push(...(await largeListing(settings, ferretUri, run.warnings)))
  } finally {
    for (const pair of pairs.values()) await Promise.all([pair.reads.stop(), pair.writes.stop()])
  }
  return run
}
