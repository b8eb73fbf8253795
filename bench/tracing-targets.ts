/** The tracing issue's targets: each traced row against tracing off, round by round. */
import { median, type Run, type Sample } from './report.js'

/** A traced row and the least req/s it may have, as a share of tracing off's. */
export type TracedRow = { readonly name: string; readonly minRps: number }

const fmt = (n: number, digits: number) => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a')

/** The scenarios the targets are set on: the listing and the create. */
export const tracingTargetScenario = (scenario: string): boolean =>
  !scenario.startsWith('GET /pets/{id}')

/** The median of `values`, then their least and most. */
const spread = (values: ReadonlyArray<number>, digits: number): string =>
  `${fmt(median(values), digits)} [${fmt(Math.min(...values), digits)}–${fmt(Math.max(...values), digits)}]`

/**
 * Each traced row against tracing off. Throughput: what one core gives, 1 / CPU per request,
 * measured in the side-by-side rounds (run.ts), where the rows share the core at the same time;
 * each round's ratio, then their median, which must reach the target. p99 and RSS: the main
 * rounds' medians, where each row had the core to itself.
 */
export const tracingTargets = (run: Run, off: string, rows: ReadonlyArray<TracedRow>): string[] =>
  rows.flatMap(({ name, minRps }) => {
    const scenarios = Object.keys(run.paired)
    /** `f` of the row's sample and tracing off's of the same round, for every round. */
    const perRound = (scenario: string, f: (traced: Sample, off: Sample) => number) => {
      const offs = run.paired[scenario]?.[off] ?? []
      return (run.paired[scenario]?.[name] ?? []).flatMap((traced, round) => {
        const base = offs[round]
        return base === undefined ? [] : [f(traced, base)]
      })
    }
    const main = (scenario: string, impl: string, f: 'p99' | 'rssMB') =>
      median((run.samples[scenario]?.[impl] ?? []).map((s) => s[f]))
    const lines = scenarios.flatMap((s) => {
      const throughput = perRound(s, (t, o) => o.cpuMicrosPerRequest / t.cpuMicrosPerRequest)
      const cpu = perRound(s, (t, o) => t.cpuMicrosPerRequest - o.cpuMicrosPerRequest)
      const loader = Math.max(...perRound(s, (t) => t.loaderCpu))
      const p99 = main(s, name, 'p99') / Math.max(1, main(s, off, 'p99'))
      return [
        [
          median(throughput) >= minRps,
          `${s}: throughput of a core ${spread(throughput, 3)}× tracing off's (≥ ${minRps}×)`,
        ],
        [p99 <= 2, `${s}: p99 ${fmt(p99, 2)}× tracing off's (≤ 2×)`],
        [true, `${s}: CPU per request ${spread(cpu, 0)} µs above tracing off's`],
        [loader <= 90, `${s}: the load processes used at most ${fmt(loader, 0)}% of their core`],
      ] as const
    })
    const reads = Object.keys(run.samples).filter(
      (s) => s.startsWith('GET') && tracingTargetScenario(s),
    )
    const peak = (impl: string) => Math.max(...reads.map((s) => main(s, impl, 'rssMB')))
    const rss = peak(name) - peak(off)
    const rounds = run.paired[scenarios[0] ?? '']?.[name]?.length ?? 0
    return [
      `**Targets** (\`${name}\` against \`${off}\`; throughput and CPU from ${rounds} rounds of ${run.meta.pairedSeconds} s with the two side by side on the one core: the median of the rounds' ratios [least–most]):`,
      '',
      ...[
        ...lines,
        [
          rss <= 30,
          `RSS of the reading instance ${fmt(rss, 0)} MB above tracing off's (≤ 30 MB)`,
        ] as const,
      ].map(([met, text]) => `- ${met ? 'met' : '**NOT MET**'}: ${text}`),
      '',
    ]
  })
