/**
 * `npm run bench [-- --rounds 3 --seconds 5 --warmup 3 --connections 50 --mongodb]`: the service
 * against a bare node:http ceiling and its peers, side by side in one run. See bench/README.md.
 */
import { execSync, spawn } from 'node:child_process'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { request, Agent } from 'node:http'
import { cpus } from 'node:os'
import { parseArgs } from 'node:util'
import { mongodb } from './mongo.js'
import { API_KEY, PETS, petNumber } from './peers/store.mjs'
import { markdown, type Sample, type Run } from './report.js'
import { tracingTargets, tracingTargetScenario } from './tracing-targets.js'
import {
  canPin,
  CEILING,
  IMPLEMENTATIONS,
  LOAD_CORE,
  OTLP_SINK,
  pinned,
  SERVICE,
  SERVICE_WITH_METRICS,
  service,
  startServer,
  tracedService,
  type Server,
} from './servers.js'

const { values: args } = parseArgs({
  options: {
    rounds: { type: 'string', default: '3' },
    seconds: { type: 'string', default: '5' },
    warmup: { type: 'string', default: '3' },
    connections: { type: 'string', default: '50' },
    mongodb: { type: 'boolean', default: false },
    /** With --mongodb: a command measuring sustained creates (given MONGODB_URI); output appended. */
    creates: { type: 'string' },
    /** A second build of the service (a `dist` directory) measured as one more row, for A/B. */
    baseline: { type: 'string' },
    /** Only the rows whose name matches this regular expression (and the ceiling). */
    only: { type: 'string' },
    /** The tracing targets' rounds: tracing off and the traced rows loaded at once, this long. */
    'paired-rounds': { type: 'string', default: '6' },
    'paired-seconds': { type: 'string', default: '5' },
  },
})
const rounds = Number(args.rounds)
const seconds = Number(args.seconds)
const warmup = Number(args.warmup)
const connections = Number(args.connections)
const pairedRounds = Number(args['paired-rounds'])
const pairedSeconds = Number(args['paired-seconds'])
export const log = (message: string) =>
  console.error(`[${new Date().toISOString().slice(11, 19)}] ${message}`)

type Request = { method: 'GET' | 'POST'; path: string; body?: string }
type Scenario = { name: string; requests: Request[]; expect: number; writes?: boolean }
const SCENARIOS: Scenario[] = [
  {
    name: 'GET /pets?status=available&limit=20',
    requests: [{ method: 'GET', path: '/v1/pets?status=available&limit=20' }],
    expect: 200,
  },
  {
    name: 'GET /pets/{id}',
    // 64 ids spread over the store, cycled by each connection.
    requests: Array.from({ length: 64 }, (_, k) => ({
      method: 'GET',
      path: `/v1/pets/${1 + ((k * 7919) % PETS)}`,
    })),
    expect: 200,
  },
  {
    name: 'POST /pets',
    requests: [
      { method: 'POST', path: '/v1/pets', body: '{"name":"Rex","categoryId":7,"status":"sold"}' },
    ],
    expect: 201,
    writes: true,
  },
]

/** The service starts empty: the same 10,000 pets as the peers', created in order over HTTP. */
const seed = async (port: number) => {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 })
  for (let i = 1; i <= PETS; i++) {
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(
        { port, host: '127.0.0.1', method: 'POST', path: '/v1/pets', agent },
        (res) => (res.resume(), res.once('end', () => resolve(res.statusCode ?? 0))),
      )
      req.setHeader('authorization', `Bearer ${API_KEY}`)
      req.setHeader('content-type', 'application/json')
      req.once('error', reject).end(JSON.stringify(petNumber(i)))
    })
    if (status !== 201) throw new Error(`seeding: pet ${i} answered ${status}`)
  }
  agent.destroy()
}

/** One load process on core 1; around it the server's CPU time and its peak RSS (every 200 ms). */
const measure = async (
  server: Server,
  scenario: Scenario,
  secs: number,
  conns = connections,
): Promise<Sample> => {
  const spec = { port: server.port, connections: conns, seconds: secs, requests: scenario.requests }
  const [command, argv] = pinned(LOAD_CORE, [
    process.execPath,
    'bench/load.mjs',
    JSON.stringify({ ...spec, authorization: `Bearer ${API_KEY}` }),
  ])
  let rss = server.rssMB()
  const sampler = setInterval(() => (rss = Math.max(rss, server.rssMB())), 200)
  const cpuBefore = server.cpuMicros()
  const out = await new Promise<string>((resolve, reject) => {
    const child = spawn(command, argv, { stdio: ['ignore', 'pipe', 'inherit'] })
    let text = ''
    child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()))
    child.once('exit', (code) => (code === 0 ? resolve(text) : reject(new Error(text))))
  })
  clearInterval(sampler)
  const cpu = server.cpuMicros() - cpuBefore
  const r = JSON.parse(out) as {
    responses: number
    seconds: number
    p50: number
    p99: number
    statusCodes: Record<string, number>
    errors: number
    timeouts: number
    loaderCpu: number
  }
  const unexpected = Object.entries(r.statusCodes).filter(([c]) => Number(c) !== scenario.expect)
  return {
    rps: r.responses / r.seconds,
    p50: r.p50,
    p99: r.p99,
    cpuMicrosPerRequest: cpu / Math.max(1, r.responses),
    rssMB: Math.max(rss, server.rssMB()),
    loaderCpu: r.loaderCpu,
    problems: [
      ...unexpected.map(([code, n]) => `${n} answers ${code}`),
      ...(r.errors + r.timeouts > 0 ? [`${r.errors} errors, ${r.timeouts} timeouts`] : []),
    ],
  }
}

if (args.baseline !== undefined)
  IMPLEMENTATIONS.push(service(`baseline: ${args.baseline}`, {}, args.baseline))
log('npm run build (the service runs compiled, as npm start starts it)')
execSync('npm run build', { stdio: ['ignore', 'ignore', 'inherit'] })
if (!canPin) log('WARNING: taskset cannot pin here: servers and load share both cores')

const run: Run = {
  meta: {
    date: new Date().toISOString(),
    node: process.version,
    cpu: /^model name\s*:\s*(.*)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1] ?? '?',
    cores: cpus().length,
    pinned: canPin,
    rounds,
    seconds,
    warmup,
    connections,
    pairedRounds,
    pairedSeconds,
  },
  samples: {},
  paired: {},
  readsRssAfterRound: {},
  notes: [],
}
// Reads on one instance (its store never changes, so its memory shows leaks), creates on another.
const instances = new Map<string, { reads: Server; writes: Server }>()
// The traced row's receiver, on the load's core: the cost of tracing is the service's to bear.
const sink = await startServer(OTLP_SINK, {}, LOAD_CORE)
const traced = (['always_on', '10%'] as const).map((s) =>
  tracedService(`http://127.0.0.1:${sink.port}`, s),
)
IMPLEMENTATIONS.push(...traced)
if (args.only !== undefined) {
  const only = new RegExp(args.only)
  const kept = IMPLEMENTATIONS.filter((i) => i === CEILING || only.test(i.name))
  IMPLEMENTATIONS.splice(0, IMPLEMENTATIONS.length, ...kept)
}
try {
  for (const impl of IMPLEMENTATIONS) {
    const pair = { reads: await startServer(impl), writes: await startServer(impl) }
    instances.set(impl.name, pair)
    if (impl.seed === true) {
      log(`${impl.name}: seeding ${PETS} pets over HTTP`)
      await Promise.all([seed(pair.reads.port), seed(pair.writes.port)])
    }
    run.readsRssAfterRound[impl.name] = []
  }
  const serverOf = (name: string, s: Scenario) => {
    const pair = instances.get(name) as { reads: Server; writes: Server }
    return s.writes === true ? pair.writes : pair.reads
  }
  for (const impl of IMPLEMENTATIONS)
    for (const s of SCENARIOS) await measure(serverOf(impl.name, s), s, warmup)
  log('warmed up')
  for (let round = 0; round < rounds; round++) {
    const order = IMPLEMENTATIONS.map(
      (_, i) => IMPLEMENTATIONS[(i + round) % IMPLEMENTATIONS.length],
    )
    for (const s of SCENARIOS)
      for (const impl of order) {
        const name = (impl as { name: string }).name
        const sample = await measure(serverOf(name, s), s, seconds)
        for (const p of sample.problems) run.notes.push(`WARNING ${name}, ${s.name}: ${p}`)
        ;((run.samples[s.name] ??= {})[name] ??= []).push(sample)
      }
    for (const [name, pair] of instances) run.readsRssAfterRound[name]?.push(pair.reads.rssMB())
    log(`round ${round + 1} of ${rounds} done`)
  }
  // The tracing targets' rounds: tracing off and the traced rows loaded at once, on the one core,
  // each by a load process of its own with an equal share of the connections. Measured apart,
  // even seconds apart, their CPU per request differs by more than the targets' margins: this
  // host's speed changes from second to second (tracing-targets.ts).
  const pairedRows = [SERVICE, ...traced].filter((impl) => instances.has(impl.name))
  const pairedScenarios = SCENARIOS.filter((s) => tracingTargetScenario(s.name))
  for (let round = 0; pairedRows.length > 1 && round < pairedRounds; round++) {
    for (const s of pairedScenarios) {
      const share = Math.ceil(connections / pairedRows.length)
      const samples = await Promise.all(
        pairedRows.map(({ name }) => measure(serverOf(name, s), s, pairedSeconds, share)),
      )
      // The load processes share core 1: their sum is what says whether it was the limit.
      const loaderCpu = samples.reduce((sum, sample) => sum + sample.loaderCpu, 0)
      samples.forEach((sample, i) => {
        const { name } = pairedRows[i] as { name: string }
        for (const p of sample.problems) run.notes.push(`WARNING ${name}, ${s.name}: ${p}`)
        ;((run.paired[s.name] ??= {})[name] ??= []).push({ ...sample, loaderCpu })
      })
    }
    log(`tracing: side-by-side round ${round + 1} of ${pairedRounds} done`)
  }
} finally {
  for (const pair of instances.values()) await Promise.all([pair.reads.stop(), pair.writes.stop()])
  await sink.stop()
}

const mongo = args.mongodb ? await mongodb(log, args.creates) : []

const shown = (names: string[]) => names.filter((n) => IMPLEMENTATIONS.some((i) => i.name === n))
const tracingRows = traced
  .map((t, i) => ({ name: t.name, minRps: i === 0 ? 0.75 : 0.9 }))
  .filter((row) => shown([row.name, SERVICE.name]).length === 2)
const table =
  markdown(run, CEILING.name, shown([SERVICE.name, SERVICE_WITH_METRICS.name])) +
  tracingTargets(run, SERVICE.name, tracingRows).join('\n') +
  mongo.join('\n')
mkdirSync('bench/results', { recursive: true })
writeFileSync('bench/results/latest.md', `${table}\n`)
writeFileSync('bench/results/latest.json', `${JSON.stringify(run, null, 2)}\n`)
console.log(table)
log('written to bench/results/latest.md and bench/results/latest.json')
