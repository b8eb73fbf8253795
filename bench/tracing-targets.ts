/** The tracing issue's targets: each traced row against tracing off, in the same run. */
import { median, type Run, type Sample } from './report.js'

/** A traced row and the least req/s it may have, as a share of tracing off's. */
export type TracedRow = { readonly name: string; readonly minRps: number }

const fmt = (n: number, digits: number) => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a')
const LISTING_AND_CREATE = (scenario: string) => !scenario.startsWith('GET /pets/{id}')

/** Every scenario's req/s, p99 and CPU, and the reading instance's RSS, against tracing off's. */
export const tracingTargets = (run: Run, off: string, rows: ReadonlyArray<TracedRow>): string[] =>
  rows.flatMap(({ name, minRps }) => {
    const at = (scenario: string, impl: string, f: keyof Sample) =>
      median((run.samples[scenario]?.[impl] ?? []).map((s) => s[f] as number))
    const scenarios = Object.keys(run.samples).filter(LISTING_AND_CREATE)
    const lines = scenarios.flatMap((s) => {
      const rps = at(s, name, 'rps') / at(s, off, 'rps')
      const p99 = at(s, name, 'p99') / Math.max(1, at(s, off, 'p99'))
      const cpu = at(s, name, 'cpuMicrosPerRequest') - at(s, off, 'cpuMicrosPerRequest')
      return [
        [rps >= minRps, `${s}: req/s ${fmt(rps, 3)}× tracing off's (≥ ${minRps}×)`],
        [p99 <= 2, `${s}: p99 ${fmt(p99, 2)}× tracing off's (≤ 2×)`],
        [true, `${s}: CPU per request ${fmt(cpu, 0)} µs above tracing off's`],
      ] as const
    })
    const reads = scenarios.filter((s) => s.startsWith('GET'))
    const peak = (impl: string) => Math.max(...reads.map((s) => at(s, impl, 'rssMB')))
    const rss = peak(name) - peak(off)
    return [
      `**Targets** (\`${name}\` against \`${off}\`):`,
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
