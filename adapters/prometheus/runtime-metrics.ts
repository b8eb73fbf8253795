import { readdir } from 'node:fs/promises'
import { getHeapSpaceStatistics } from 'node:v8'
import { createEventLoopLag } from './event-loop-lag.js'
import { labelText, renderCounter, renderGauge, type CounterCell } from './exposition.js'

export type RuntimeMetricsOptions = {
  /** The process's limit on open files (`ulimit -n`), where the system tells it. */
  readonly maxDescriptors?: number | undefined
}

const bare = (value: number): CounterCell[] => [{ labels: '', value }]
const byLabel = (label: string, entries: Iterable<readonly [string, number]>): CounterCell[] =>
  Array.from(entries, ([key, value]) => ({ labels: labelText({ [label]: key }), value }))

/** Open descriptors, where the system lists them (Linux's /proc); else undefined. */
const openDescriptors = (): Promise<number | undefined> =>
  readdir('/proc/self/fd').then(
    (entries) => entries.length - 1, // less the listing's own
    () => undefined,
  )

const cpuAndMemory = async (maxDescriptors: number | undefined): Promise<string> => {
  const { user, system } = process.cpuUsage()
  const open = await openDescriptors()
  return [
    renderCounter('process_cpu_user_seconds_total', 'User CPU time.', bare(user / 1e6)),
    renderCounter('process_cpu_system_seconds_total', 'System CPU time.', bare(system / 1e6)),
    renderCounter(
      'process_cpu_seconds_total',
      'User and system CPU time.',
      bare((user + system) / 1e6),
    ),
    renderGauge(
      'process_start_time_seconds',
      'Start, in seconds since the Unix epoch.',
      bare(Math.round(performance.timeOrigin / 1000)),
    ),
    renderGauge(
      'process_resident_memory_bytes',
      'Resident memory.',
      bare(process.memoryUsage.rss()),
    ),
    open === undefined ? '' : renderGauge('process_open_fds', 'Open descriptors.', bare(open)),
    maxDescriptors === undefined
      ? ''
      : renderGauge('process_max_fds', 'Limit on open descriptors.', bare(maxDescriptors)),
  ].join('')
}

const heap = (): string => {
  const { heapTotal, heapUsed, external } = process.memoryUsage()
  const spaces = getHeapSpaceStatistics()
  const space = (what: string, of: (s: (typeof spaces)[number]) => number) =>
    renderGauge(
      `nodejs_heap_space_size_${what}_bytes`,
      `Heap space size ${what}, by space.`,
      byLabel(
        'space',
        spaces.map((s) => [s.space_name.replace(/_space$/, ''), of(s)]),
      ),
    )
  return [
    renderGauge('nodejs_heap_size_total_bytes', 'V8 heap size.', bare(heapTotal)),
    renderGauge('nodejs_heap_size_used_bytes', 'V8 heap used.', bare(heapUsed)),
    renderGauge(
      'nodejs_external_memory_bytes',
      'Memory of C++ objects bound to JavaScript.',
      bare(external),
    ),
    space('total', (s) => s.space_size),
    space('used', (s) => s.space_used_size),
    space('available', (s) => s.space_available_size),
  ].join('')
}

const resourcesAndVersion = (): string => {
  const active = process.getActiveResourcesInfo()
  const counts = new Map<string, number>()
  for (const type of active) counts.set(type, (counts.get(type) ?? 0) + 1)
  const [major = '', minor = '', patch = ''] = process.versions.node.split('.')
  const version = labelText({ version: process.version, major, minor, patch })
  return [
    renderGauge(
      'nodejs_active_resources',
      'Resources keeping the event loop alive, by type.',
      byLabel('type', counts),
    ),
    renderGauge(
      'nodejs_active_resources_total',
      'Resources keeping the event loop alive.',
      bare(active.length),
    ),
    renderGauge('nodejs_version_info', 'Node.js version.', [{ labels: version, value: 1 }]),
  ].join('')
}

/**
 * The process and the Node runtime, under the names prom-client's defaults use so that the usual
 * dashboards work, read at scrape time. Not its garbage-collection histogram: that needs Node's
 * `gc` PerformanceObserver, which runs JavaScript after every collection and took the reading
 * instance over its memory target under load (bench/HISTORY.md).
 */
export const createRuntimeMetrics = ({ maxDescriptors }: RuntimeMetricsOptions = {}) => {
  const lag = createEventLoopLag()
  return {
    render: async (): Promise<string> =>
      (await cpuAndMemory(maxDescriptors)) + (await lag.render()) + heap() + resourcesAndVersion(),
  }
}
