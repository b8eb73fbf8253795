/** Medians, [min–max] and ratios to the ceiling of the same run; the targets, met or not. */
export type Sample = {
  readonly rps: number
  readonly p50: number
  readonly p99: number
  readonly cpuMicrosPerRequest: number
  /** Peak resident set while loaded, MB. */
  readonly rssMB: number
  /** The load generator's CPU, % of its core. */
  readonly loaderCpu: number
  readonly problems: ReadonlyArray<string>
}

export type Run = {
  readonly meta: Record<string, string | number | boolean>
  /** scenario → implementation → one sample per round. */
  readonly samples: Record<string, Record<string, Sample[]>>
  /**
   * The tracing targets' rounds, as `samples`: tracing off and the traced rows loaded at once on
   * the one core in each round (the listing and the create only). `loaderCpu` is the load
   * processes' sum.
   */
  readonly paired: Record<string, Record<string, Sample[]>>
  /** RSS (MB) of the instance serving the reads, after each round. */
  readonly readsRssAfterRound: Record<string, number[]>
  readonly notes: string[]
}

type Figure = 'rps' | 'p50' | 'p99' | 'cpuMicrosPerRequest' | 'rssMB'
const FIGURES: ReadonlyArray<[Figure, string, number]> = [
  ['rps', 'req/s', 0],
  ['p50', 'p50 ms', 0],
  ['p99', 'p99 ms', 0],
  ['cpuMicrosPerRequest', 'CPU µs/req', 0],
  ['rssMB', 'RSS MB', 0],
]
const LOADER_LIMIT = 90

export const median = (values: ReadonlyArray<number>): number => {
  const s = [...values].sort((a, b) => a - b)
  const mid = s.length >> 1
  return s.length % 2 === 1 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2
}
const fmt = (n: number, digits = 0) =>
  Number.isFinite(n)
    ? n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits })
    : 'n/a'
const of = (samples: ReadonlyArray<Sample>, f: Figure) => samples.map((s) => s[f])

type Target = { text: string; met: boolean }

const targets = (run: Run, ceiling: string, service: string): Target[] => {
  const at = (scenario: string, impl: string, f: Figure) =>
    median(of(run.samples[scenario]?.[impl] ?? [], f))
  const ratio = (scenario: string, f: Figure) => at(scenario, service, f) / at(scenario, ceiling, f)
  const rps = Object.keys(run.samples).map((scenario) => {
    const min = scenario.startsWith('POST') ? 0.33 : 0.4
    const r = ratio(scenario, 'rps')
    return { text: `${scenario}: req/s ${fmt(r, 3)}× the ceiling (≥ ${min}×)`, met: r >= min }
  })
  const p99 = Object.keys(run.samples).map((scenario) => {
    const r = ratio(scenario, 'p99')
    return { text: `${scenario}: p99 ${fmt(r, 2)}× the ceiling's (≤ 2×)`, met: r <= 2 }
  })
  const reads = Object.keys(run.samples).filter((s) => s.startsWith('GET'))
  const readsRss = Math.max(...reads.flatMap((s) => of(run.samples[s]?.[service] ?? [], 'rssMB')))
  // Flat: the last round ends no higher than the first round's peak under load (plus 5 MB). Not
  // the RSS after round 1: V8 gives memory back when a round ends, so that figure may be taken
  // before the heap has reached its working size, and a flat series would look like growth.
  const firstPeak = Math.max(...reads.map((s) => run.samples[s]?.[service]?.[0]?.rssMB ?? NaN))
  const last = run.readsRssAfterRound[service]?.at(-1) ?? NaN
  return [
    ...rps,
    ...p99,
    {
      text: `RSS of the reading instance under load ${fmt(readsRss)} MB (< 100 MB)`,
      met: readsRss < 100,
    },
    {
      text: `memory flat: the reading instance's peak under load in round 1 → RSS after the last round ${fmt(firstPeak, 1)} → ${fmt(last, 1)} MB (grows ≤ 5 MB)`,
      met: last - firstPeak <= 5,
    },
  ]
}

export const markdown = (run: Run, ceiling: string, services: ReadonlyArray<string>): string => {
  const m = run.meta
  const rows = Object.entries(run.samples).flatMap(([scenario, byImpl]) =>
    Object.entries(byImpl).map(([impl, samples]) => {
      const cells = FIGURES.map(([f, , digits]) => {
        const v = of(samples, f)
        const r = median(v) / median(of(byImpl[ceiling] ?? [], f))
        return `${fmt(median(v), digits)} [${fmt(Math.min(...v), digits)}–${fmt(Math.max(...v), digits)}] **${fmt(r, 2)}×**`
      })
      const loader = Math.max(...of(samples, 'loaderCpu' as Figure))
      const flag = loader > LOADER_LIMIT ? ' ⚠ load-bound' : ''
      return `| ${scenario} | ${impl} | ${cells.join(' | ')} | ${fmt(loader)}%${flag} |`
    }),
  )
  const memory = Object.entries(run.readsRssAfterRound).map(
    ([impl, rss]) => `| ${impl} | ${rss.map((v) => fmt(v, 1)).join(' → ')} |`,
  )
  return [
    `# Benchmark, ${m.date}`,
    '',
    `Node ${m.node} · ${m.cpu} (${m.cores} cores) · ${m.pinned ? 'servers on core 0, autocannon on core 1' : '**NOT pinned** (no taskset)'} · ${m.connections} connections · ${m.rounds} rounds × ${m.seconds} s, ${m.warmup} s warm-up · 10,000 pets stored, in memory`,
    '',
    "Each cell: median [min–max] over the rounds, then **the ratio to the ceiling** in the same run (req/s: higher is better; the rest: lower is better). Latency from autocannon's histogram, in whole milliseconds. The last column is the load generator's peak CPU; above 90% it may be the limit (⚠).",
    '',
    `| scenario | implementation | ${FIGURES.map(([, label]) => label).join(' | ')} | autocannon CPU |`,
    `|${' --- |'.repeat(FIGURES.length + 3)}`,
    ...rows,
    '',
    '**Memory**: RSS (MB) of the instance that serves the reads, after each round.',
    '',
    '| implementation | after each round |',
    '| --- | --- |',
    ...memory,
    '',
    ...services.flatMap((service) => [
      `**Targets** (\`${service}\` against \`${ceiling}\`):`,
      '',
      ...targets(run, ceiling, service).map((t) => `- ${t.met ? 'met' : '**NOT MET**'}: ${t.text}`),
      '',
    ]),
    ...(run.notes.length > 0 ? ['', ...run.notes.map((n) => `- **${n}**`)] : []),
    '',
  ].join('\n')
}
