/**
 * Counters, gauges and histograms, written out in the Prometheus text format at scrape
 * time. prom-client's own labelled children hash their label object and allocate on every
 * observation (bench/HISTORY.md); these cells are plain numbers found once per label set, so an
 * observation is a few additions.
 */
export type HistogramCell = {
  readonly labels: string
  /** Observations per bucket (not cumulative); the last one is +Inf. */
  readonly counts: Float64Array
  sum: number
}
export type CounterCell = { readonly labels: string; value: number }

const escape = (v: string) => v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')

/** `a="x",b="y"`, escaped once when the cell is made. */
export const labelText = (labels: Readonly<Record<string, string>>): string =>
  Object.entries(labels)
    .map(([k, v]) => `${k}="${escape(v)}"`)
    .join(',')

export const histogramCell = (labels: string, bounds: ReadonlyArray<number>): HistogramCell => ({
  labels,
  counts: new Float64Array(bounds.length + 1),
  sum: 0,
})

export const observe = (cell: HistogramCell, bounds: ReadonlyArray<number>, value: number) => {
  let i = 0
  while (i < bounds.length && value > bounds[i]!) i++
  cell.counts[i]! += 1
  cell.sum += value
}

const braces = (labels: string) => (labels === '' ? '' : `{${labels}}`)
const join = (a: string, b: string) => (a === '' ? b : `${a},${b}`)

const renderSamples =
  (type: 'counter' | 'gauge') => (name: string, help: string, cells: Iterable<CounterCell>) => {
    let text = `# HELP ${name} ${help}\n# TYPE ${name} ${type}\n`
    for (const cell of cells) text += `${name}${braces(cell.labels)} ${cell.value}\n`
    return text
  }

export const renderCounter = renderSamples('counter')
/** A gauge's cells have the counter's shape: labels and a value, here set at scrape time. */
export const renderGauge = renderSamples('gauge')

export const renderHistogram = (
  name: string,
  help: string,
  bounds: ReadonlyArray<number>,
  cells: Iterable<HistogramCell>,
) => {
  let text = `# HELP ${name} ${help}\n# TYPE ${name} histogram\n`
  for (const cell of cells) {
    let cumulative = 0
    cell.counts.forEach((count, i) => {
      cumulative += count
      const le = i < bounds.length ? String(bounds[i]) : '+Inf'
      text += `${name}_bucket{${join(cell.labels, `le="${le}"`)}} ${cumulative}\n`
    })
    text += `${name}_sum${braces(cell.labels)} ${cell.sum}\n`
    text += `${name}_count${braces(cell.labels)} ${cumulative}\n`
  }
  return text
}
