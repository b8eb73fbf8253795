/**
 * `npm run bench [-- --rounds 3 --seconds 5 --warmup 3 --connections 50 --pipelining 1
 * --mongodb --mongodb-connections 4 --large]`: the service against the node:http ceiling and
 * the Fastify peer. See bench/README.md for the method.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { cpus } from 'node:os'
import { parseArgs } from 'node:util'
import { startFerret } from './mongo.js'
import { markdown, median, targetsOf, type Meta, type StoreRun } from './report.js'
import { canPin } from './servers.js'
import { log, runStore, type Settings } from './store-run.js'

const { values: args } = parseArgs({
  options: {
    rounds: { type: 'string', default: '3' },
    seconds: { type: 'string', default: '5' },
    warmup: { type: 'string', default: '3' },
    connections: { type: 'string', default: '50' },
    pipelining: { type: 'string', default: '1' },
    mongodb: { type: 'boolean', default: process.env.BENCH_MONGODB === '1' },
    'mongodb-connections': { type: 'string', default: '4' },
    large: { type: 'boolean', default: false },
  },
})

const settings: Settings = {
  rounds: Math.max(1, Number(args.rounds)),
  seconds: Number(args.seconds),
  warmupSeconds: Number(args.warmup),
  connections: Number(args.connections),
  pipelining: Number(args.pipelining),
  mongodbConnections: Number(args['mongodb-connections']),
  large: args.large,
  pin: canPin(),
}
if (!settings.pin) log('WARNING: taskset cannot pin here; servers and load share both cores')

const meta: Meta = {
  date: new Date().toISOString(),
  node: process.version,
  cpu: /^model name\s*:\s*(.*)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1] ?? 'unknown',
  cores: cpus().length,
  rounds: settings.rounds,
  seconds: settings.seconds,
  warmupSeconds: settings.warmupSeconds,
  connections: settings.connections,
  pipelining: settings.pipelining,
  pinned: settings.pin,
  command: [
    'npm run bench',
    ...(process.argv.length > 2 ? ['--', ...process.argv.slice(2)] : []),
  ].join(' '),
}

const runs: StoreRun[] = [await runStore(settings, 'in-memory')]
if (args.mongodb) {
  const ferret = startFerret()
  try {
    runs.push(await runStore(settings, 'mongodb', ferret.uri))
  } finally {
    ferret.stop()
  }
}

const medians = (run: StoreRun) =>
  Object.fromEntries(
    Object.entries(run.samples).map(([scenario, byImpl]) => [
      scenario,
      Object.fromEntries(
        Object.entries(byImpl).map(([impl, samples]) => [
          impl,
          { rps: median(samples.map((s) => s.rps)), p99: median(samples.map((s) => s.p99)) },
        ]),
      ),
    ]),
  )
const summary = runs.map((run) => ({
  store: run.store,
  medians: medians(run),
  ...(run.store === 'in-memory' ? { targets: targetsOf(run) } : {}),
}))

const table = markdown(meta, runs)
mkdirSync('bench/results', { recursive: true })
writeFileSync('bench/results/latest.md', table)
writeFileSync('bench/results/latest.json', `${JSON.stringify({ meta, summary, runs }, null, 2)}\n`)
console.log(table)
const warnings = runs.flatMap((run) => run.warnings.map((w) => `${run.store}: ${w}`))
if (warnings.length > 0) {
  console.error(
    `\n!!!!!!!! ${warnings.length} WARNING(S): some figures may not mean what they say !!!!!!!!`,
  )
  for (const w of warnings) console.error(`!!! ${w}`)
}
log('written to bench/results/latest.md and bench/results/latest.json')
