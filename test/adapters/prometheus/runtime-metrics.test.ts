import { closeSync, existsSync, openSync, readdirSync } from 'node:fs'
import { createServer } from 'node:net'
import { expect } from 'chai'
import { createRuntimeMetrics } from '../../../adapters/prometheus/runtime-metrics.js'
import { sample } from '../../support/exposition.js'

const busyFor = (ms: number) => {
  const until = performance.now() + ms
  while (performance.now() < until);
}
/** Spins until this process has used `ms` more CPU time (a busy host may take longer). */
const burnCpu = (ms: number) => {
  const from = process.cpuUsage()
  while (process.cpuUsage(from).user < ms * 1000);
}
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const onLinux = existsSync('/proc/self/fd')

describe('runtime metrics', () => {
  it('writes valid text format: every sample of a family with one HELP and one TYPE', async () => {
    const text = await createRuntimeMetrics({ maxDescriptors: 1024 }).render()
    const typed = new Map<string, string>()
    for (const line of text.trimEnd().split('\n')) {
      const comment = /^# (HELP|TYPE) ([a-z_:][a-z0-9_:]*) (.+)$/.exec(line)
      if (comment?.[1] === 'TYPE') {
        expect(typed.has(comment[2]!), `${comment[2]} typed twice`).to.equal(false)
        typed.set(comment[2]!, comment[3]!)
        continue
      }
      if (comment !== null) continue
      const metric = /^([a-z_:][a-z0-9_:]*)(\{[a-z_]+="[^"]*"(,[a-z_]+="[^"]*")*\})? (\S+)$/.exec(
        line,
      )
      expect(metric, line).to.not.equal(null)
      expect(typed.has(metric![1]!), `${metric![1]} has no TYPE before it`).to.equal(true)
      expect(Number.isFinite(Number(metric![4])), line).to.equal(true)
    }
    expect(typed.get('process_cpu_seconds_total')).to.equal('counter')
    expect(typed.get('process_resident_memory_bytes')).to.equal('gauge')
  })

  it('tells this process: CPU, memory, start time, descriptors', async () => {
    const metrics = createRuntimeMetrics({ maxDescriptors: 4321 })
    const before = sample(await metrics.render(), 'process_cpu_seconds_total')!
    burnCpu(50)
    const text = await metrics.render()
    const user = sample(text, 'process_cpu_user_seconds_total')!
    const system = sample(text, 'process_cpu_system_seconds_total')!
    expect(sample(text, 'process_cpu_seconds_total')).to.be.closeTo(user + system, 1e-6)
    expect(user + system - before).to.be.at.least(0.05)
    const rss = process.memoryUsage.rss()
    expect(sample(text, 'process_resident_memory_bytes')).to.be.within(rss * 0.8, rss * 1.2)
    const started = (Date.now() - process.uptime() * 1000) / 1000
    expect(sample(text, 'process_start_time_seconds')).to.be.closeTo(started, 2)
    expect(sample(text, 'process_max_fds')).to.equal(4321)
    expect(sample(await createRuntimeMetrics().render(), 'process_max_fds')).to.equal(undefined)
  })

  it('counts open descriptors (Linux)', async function () {
    if (!onLinux) {
      if (process.env.CI === 'true') throw new Error('CI runs on Linux: /proc/self/fd is missing')
      this.skip()
    }
    const metrics = createRuntimeMetrics()
    const open = async () => sample(await metrics.render(), 'process_open_fds')!
    const listed = readdirSync('/proc/self/fd').length - 1
    expect(await open()).to.be.within(listed - 2, listed + 2)
    const fds = [0, 1, 2].map(() => openSync('/dev/null', 'r'))
    try {
      const during = await open()
      fds.forEach(closeSync)
      fds.length = 0
      expect(during - (await open())).to.equal(3)
    } finally {
      fds.forEach(closeSync)
    }
  })

  it('reports event-loop delays since the last scrape, never the empty histogram', async () => {
    const metrics = createRuntimeMetrics()
    // Scraped at once (nothing sampled yet, or a sample or two): never the empty histogram's
    // NaN mean or its minimum of 9.2e18 ns.
    const fresh = await metrics.render()
    for (const figure of ['min', 'max', 'mean', 'stddev', 'p99'])
      expect(sample(fresh, `nodejs_eventloop_lag_${figure}_seconds`), figure).to.be.within(0, 1)
    await sleep(30)
    busyFor(300)
    await sleep(30)
    const blocked = await metrics.render()
    expect(sample(blocked, 'nodejs_eventloop_lag_max_seconds')).to.be.at.least(0.3)
    expect(sample(blocked, 'nodejs_eventloop_lag_p99_seconds')).to.be.at.least(0.3)
    // The scrape reset the distribution: the block is not seen again.
    await sleep(60)
    const after = await metrics.render()
    expect(sample(after, 'nodejs_eventloop_lag_max_seconds')).to.be.below(0.3)
    expect(sample(after, 'nodejs_eventloop_lag_seconds')).to.be.within(0, 0.3)
  })

  it('tells the heap, by space, and the active resources by type', async () => {
    const metrics = createRuntimeMetrics()
    const text = await metrics.render()
    const heapUsed = process.memoryUsage().heapUsed
    expect(sample(text, 'nodejs_heap_size_used_bytes')).to.be.within(heapUsed / 2, heapUsed * 2)
    for (const space of ['new', 'old', 'code']) {
      const used = sample(text, `nodejs_heap_space_size_used_bytes{space="${space}"}`)!
      expect(used, space).to.be.above(0)
      expect(used).to.be.at.most(
        sample(text, `nodejs_heap_space_size_total_bytes{space="${space}"}`)!,
      )
    }
    const servers = (t: string) => sample(t, 'nodejs_active_resources{type="TCPServerWrap"}') ?? 0
    const server = createServer()
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    try {
      const listening = await metrics.render()
      expect(servers(listening)).to.equal(servers(text) + 1)
      const typed = [...listening.matchAll(/^nodejs_active_resources\{type="[^"]+"\} (\d+)$/gm)]
      expect(sample(listening, 'nodejs_active_resources_total')).to.equal(
        typed.reduce((sum, m) => sum + Number(m[1]), 0),
      )
    } finally {
      await new Promise((resolve) => server.close(resolve))
    }
  })

  it('names the Node.js version, and has no garbage-collection histogram', async () => {
    const text = await createRuntimeMetrics().render()
    const [major, minor, patch] = process.versions.node.split('.')
    const labels = `version="${process.version}",major="${major}",minor="${minor}",patch="${patch}"`
    expect(sample(text, `nodejs_version_info{${labels}}`)).to.equal(1)
    expect(text).to.not.include('nodejs_gc_')
  })
})
