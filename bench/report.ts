/** Medians, ranges and ratios to the node:http ceiling, as Markdown and as JSON. */
import type { Sample } from './measure.js'
import { SCENARIOS, SEED_PETS } from './scenarios.js'
import { IMPLEMENTATIONS, type Implementation } from './servers.js'

export type Meta = {
  readonly date: string
  readonly node: string
  readonly cpu: string
  readonly cores: number
  readonly rounds: number
  readonly seconds: number
  readonly warmupSeconds: number
  readonly connections: number
  readonly pipelining: number
  readonly pinned: boolean
  readonly command: string
}

export type LargeListing = {
  readonly pets: number
  readonly p50: number[]
  readonly p99: number[]
  /** Answers other than 200 (or failures), per round. */
  readonly unexpected: number[]
  readonly requests: number
}

export type StoreRun = {
  readonly store: 'in-memory' | 'mongodb'
  /** scenario → implementation → one sample per round. */
  readonly samples: Record<string, Record<Implementation, Sample[]>>
  /** RSS after each round of the instance that serves the reads (its store never changes). */
  readonly readsRssAfterRoundMB: Record<Implementation, number[]>
  /** RSS after each round of the instance that serves the creates (its store grows). */
  readonly writesRssAfterRoundMB: Record<Implementation, number[]>
  readonly createdPerRound: Record<Implementation, number[]>
  readonly warnings: string[]
  readonly notes: string[]
  readonly large: LargeListing[]
}

type Figure = 'rps' | 'p50' | 'p99' | 'cpuMicrosPerRequest' | 'rssUnderLoadMB'
const FIGURES: ReadonlyArray<[Figure, string, number]> = [
  ['rps', 'req/s', 0],
  ['p50', 'p50 ms', 2],
  ['p99', 'p99 ms', 2],
  ['cpuMicrosPerRequest', 'CPU µs/req', 1],
  ['rssUnderLoadMB', 'RSS under load MB', 1],
]

/** The median of the finite values (NaN when there are none: nothing answered). */
export const median = (values: ReadonlyArray<number>): number => {
  const sorted = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b)
  if (sorted.length === 0) return NaN
  const mid = sorted.length >> 1
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2
}

const fmt = (n: number, digits: number) =>
  Number.isFinite(n)
    ? n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits })
    : 'n/a'
const low = (values: ReadonlyArray<number>) => Math.min(...values.filter(Number.isFinite))
const high = (values: ReadonlyArray<number>) => Math.max(...values.filter(Number.isFinite))

const ratio = (value: number, ceiling: number) => value / ceiling

/** `median [min–max] ratio×` of one figure over the rounds. */
const cell = (values: ReadonlyArray<number>, ceiling: number, digits: number) =>
  `${fmt(median(values), digits)} [${fmt(low(values), digits)}–${fmt(high(values), digits)}] **${fmt(ratio(median(values), ceiling), 2)}×**`

const figureOf = (samples: ReadonlyArray<Sample>, figure: Figure) => samples.map((s) => s[figure])

const scenarioRows = (run: StoreRun): string[] =>
  Object.entries(run.samples).flatMap(([scenario, byImpl]) =>
    IMPLEMENTATIONS.map((impl) => {
      const cells = FIGURES.map(([figure, , digits]) =>
        cell(figureOf(byImpl[impl], figure), median(figureOf(byImpl['node:http'], figure)), digits),
      )
      return `| ${scenario} | ${impl} | ${cells.join(' | ')} |`
    }),
  )

const isWrite = (scenario: string) => SCENARIOS.some((s) => s.name === scenario && s.writes)

const memoryRows = (run: StoreRun): string[] =>
  IMPLEMENTATIONS.map((impl) => {
    const reads = run.readsRssAfterRoundMB[impl]
    const writes = run.writesRssAfterRoundMB[impl]
    const grown = (rss: number[]) => (rss.at(-1) as number) - (rss[0] as number)
    const created = run.createdPerRound[impl].slice(1).reduce((a, b) => a + b, 0)
    const perThousand = created === 0 ? NaN : (grown(writes) * 1000) / created
    return `| ${impl} | ${fmt(reads[0] as number, 1)} → ${fmt(reads.at(-1) as number, 1)} (${fmt(grown(reads), 1)}) | ${fmt(writes[0] as number, 1)} → ${fmt(writes.at(-1) as number, 1)} (${fmt(grown(writes), 1)}) | ${fmt(created, 0)} | ${fmt(perThousand, 2)} |`
  })

type Target = { readonly text: string; readonly met: boolean }

/** The targets for the service against the ceiling, on the in-memory store. */
export const targetsOf = (run: StoreRun): Target[] => {
  const at = (scenario: string, impl: Implementation, figure: Figure) =>
    median(figureOf(run.samples[scenario]?.[impl] ?? [], figure))
  const share = (scenario: string, figure: Figure) =>
    at(scenario, 'service', figure) / at(scenario, 'node:http', figure)
  const rpsTargets = Object.keys(run.samples).flatMap((scenario) =>
    scenario.startsWith('GET /pets?') || scenario === 'POST /pets'
      ? [[scenario, scenario === 'POST /pets' ? 0.55 : 0.6] as const]
      : [],
  )
  const peakRss = (writes: boolean) =>
    Math.max(
      ...Object.entries(run.samples)
        .filter(([scenario]) => isWrite(scenario) === writes)
        .flatMap(([, byImpl]) => figureOf(byImpl.service, 'rssUnderLoadMB')),
    )
  const readsRss = peakRss(false)
  return [
    ...rpsTargets.map(([scenario, min]) => {
      const r = share(scenario, 'rps')
      return {
        text: `${scenario}: req/s ${fmt(r, 2)}× the ceiling (target ≥ ${min}×)`,
        met: r >= min,
      }
    }),
    ...Object.keys(run.samples).map((scenario) => {
      const r = share(scenario, 'p99')
      return { text: `${scenario}: p99 ${fmt(r, 2)}× the ceiling (target ≤ 2×)`, met: r <= 2 }
    }),
    {
      text: `RSS under load (reads, ${SEED_PETS.toLocaleString('en-US')} pets stored) at most ${fmt(readsRss, 1)} MB (target < 150 MB; the creating instance, whose store grows, peaked at ${fmt(peakRss(true), 1)} MB)`,
      met: readsRss < 150,
    },
  ]
}

const largeRows = (run: StoreRun): string[] =>
  run.large.map(
    (l) =>
      `| ${fmt(l.pets, 0)} | ${fmt(median(l.p50), 2)} [${fmt(low(l.p50), 2)}–${fmt(high(l.p50), 2)}] | ${fmt(median(l.p99), 2)} | ${l.unexpected.reduce((a, b) => a + b, 0)} of ${l.requests} |`,
  )

export const markdown = (meta: Meta, runs: ReadonlyArray<StoreRun>): string => {
  const lines = [
    `# Animal Store benchmark, ${meta.date}`,
    '',
    `\`${meta.command}\` · Node ${meta.node} · ${meta.cpu} (${meta.cores} cores) · ${meta.rounds} rounds × ${meta.seconds} s per measurement, ${meta.warmupSeconds} s warm-up per scenario · ${meta.connections} connections, pipelining ${meta.pipelining} · ${meta.pinned ? 'servers pinned to core 0, autocannon to core 1' : 'NOT pinned (taskset unavailable): servers and autocannon share both cores'}`,
    '',
    'The service runs as `npm start` runs it (`node --import tsx apps/server/main.ts`) with `LOG_LEVEL=warn`: its per-request log line is at info, so it is built but not written.',
    'Each cell: median [min–max] over the rounds, then **the ratio to node:http** measured in the same run (req/s: higher is better; the rest: lower is better).',
  ]
  for (const run of runs) {
    lines.push('', `## ${run.store} store`, '')
    if (run.notes.length > 0) lines.push(...run.notes, '')
    lines.push(`| scenario | implementation | ${FIGURES.map(([, label]) => label).join(' | ')} |`)
    lines.push(`|${' --- |'.repeat(FIGURES.length + 2)}`)
    lines.push(...scenarioRows(run))
    lines.push('', '### Memory: RSS after round 1 → after the last round (growth), MB', '')
    lines.push(
      'Reads run on an instance whose store holds the seeded pets only: its memory must not grow with the requests it serves. ' +
        "Creates run on a second instance, whose store keeps every pet created: compare its growth per 1,000 pets with the ceiling's.",
      '',
    )
    lines.push(
      '| implementation | reads instance | creating instance | pets created after round 1 | MB per 1,000 created |',
      '| --- | --- | --- | --- | --- |',
    )
    lines.push(...memoryRows(run))
    if (run.store === 'in-memory') {
      lines.push('', '### Targets (service vs node:http)', '')
      lines.push(...targetsOf(run).map((t) => `- ${t.met ? 'met' : '**NOT MET**'}: ${t.text}`))
    }
    if (run.large.length > 0) {
      lines.push(
        '',
        '### Service: `GET /pets?status=available&limit=20&after=<middle id>` by pets stored',
        '',
        "One request at a time (the query's latency, not a queue's), 10 per round, with STORE_TIMEOUT_MS=60000 so that a slow answer is timed rather than cut short to 503; pets bulk-inserted as the adapter stores them.",
        '',
        '| pets stored | p50 ms [min–max] | p99 ms | answers other than 200 |',
        '| --- | --- | --- | --- |',
        ...largeRows(run),
      )
    }
    if (run.warnings.length > 0)
      lines.push('', '### WARNINGS', '', ...run.warnings.map((w) => `- **${w}**`))
  }
  return `${lines.join('\n')}\n`
}
