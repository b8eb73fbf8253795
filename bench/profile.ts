/**
 * `npx tsx bench/profile.ts [seconds]`: runs the service under `node --cpu-prof` (pinned like the
 * benchmark) once per profiled scenario, loads it, ends it with SIGINT (main.ts exits through
 * process.exit, which still writes the profile) and prints where its own CPU time went.
 */
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { SourceMap } from 'node:module'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
// esbuild comes with tsx: the same transform tsx ran maps profile columns back to source lines.
import { transformSync } from 'esbuild'
import { measure } from './measure.js'
import { SCENARIOS, SEED, SEED_PETS } from './scenarios.js'
import { canPin, startServer } from './servers.js'

type ProfileNode = {
  id: number
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number }
}
type Profile = { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] }

const seconds = Number(process.argv[2] ?? 15)
const KEY = 'bench-key-0123456789'
const pin = canPin()
const PROFILED = ['GET /pets?limit=20', 'GET /pets/{id}', 'POST /pets']

/** The package or the project file a frame belongs to. */
const ownerOf = (url: string, name: string): string => {
  if (url === '') return name.startsWith('(') ? name : '(native)'
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1]
  if (pkg !== undefined) return pkg
  if (url.startsWith('node:')) return url.split('/').slice(0, 2).join('/')
  return url.startsWith('file:') ? relative(process.cwd(), fileURLToPath(url)) : url
}

/*
 * tsx serves each file as one line (minifyWhitespace) with anonymous arrow functions, so a
 * project frame is named by the source line its column maps back to, through the same
 * transform with tsx's options.
 */
const sourceLines = new Map<string, (column: number) => string>()
const projectFrame = (file: string, column: number): string => {
  let lineAt = sourceLines.get(file)
  if (lineAt === undefined) {
    const source = readFileSync(file, 'utf8')
    const lines = source.split('\n')
    const { map } = transformSync(source, {
      loader: 'ts',
      format: 'esm',
      target: `node${process.versions.node}`,
      sourcemap: 'external',
      minifyWhitespace: true,
      keepNames: true,
      sourcefile: file,
    })
    const sourceMap = new SourceMap(JSON.parse(map))
    lineAt = (col) => {
      const line = (sourceMap.findEntry(0, col) as { originalLine?: number }).originalLine
      return line === undefined ? `col ${col}` : `${line + 1}  ${lines[line]?.trim().slice(0, 70)}`
    }
    sourceLines.set(file, lineAt)
  }
  return `${relative(process.cwd(), file)}:${lineAt(column)}`
}

const frameOf = ({ functionName, url, lineNumber, columnNumber }: ProfileNode['callFrame']) => {
  const owner = ownerOf(url, functionName)
  if (url.startsWith('file:') && !url.includes('/node_modules/'))
    return projectFrame(fileURLToPath(url), columnNumber)
  return `${functionName || '(anonymous)'}  ${owner}${url === '' ? '' : `:${lineNumber + 1}`}`
}

const top = (totals: Map<string, number>, all: number, count: number) =>
  [...totals]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([key, micros]) => `${((micros / all) * 100).toFixed(1).padStart(5)}%  ${key}`)
    .join('\n')

/** Self time, in % of the time the main thread was busy (idle time left out). */
const summarize = (profile: Profile): string => {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]))
  const byFunction = new Map<string, number>()
  const byOwner = new Map<string, number>()
  let busy = 0
  let idle = 0
  profile.samples.forEach((id, i) => {
    const micros = profile.timeDeltas[i + 1] ?? 0
    const { callFrame } = byId.get(id) as ProfileNode
    if (callFrame.functionName === '(idle)') {
      idle += micros
      return
    }
    const owner = ownerOf(callFrame.url, callFrame.functionName)
    const where = frameOf(callFrame)
    byFunction.set(where, (byFunction.get(where) ?? 0) + micros)
    byOwner.set(owner, (byOwner.get(owner) ?? 0) + micros)
    busy += micros
  })
  const idleShare = ((idle / (idle + busy)) * 100).toFixed(1)
  return [
    `main thread idle ${idleShare}% of the time; the rest, by package or file:`,
    top(byOwner, busy, 25),
    '',
    'by function (project files: the source line the function starts on):',
    top(byFunction, busy, 40),
  ].join('\n')
}

for (const name of PROFILED) {
  const scenario = SCENARIOS.find((s) => s.name === name)
  if (scenario === undefined) throw new Error(`no scenario ${name}`)
  const dir = mkdtempSync(join(tmpdir(), 'bench-prof-'))
  const server = await startServer('service', { API_KEYS: KEY }, pin, [
    '--cpu-prof',
    `--cpu-prof-dir=${dir}`,
  ])
  const base = { port: server.port, key: KEY, connections: 50, pipelining: 1 }
  if (scenario.writes !== true)
    await measure(
      server,
      { ...SEED.load, ...base, connections: 10, seconds: 600, amount: SEED_PETS },
      201,
      pin,
    )
  const sample = await measure(server, { ...scenario.load, ...base, seconds }, scenario.expect, pin)
  await server.stop('SIGINT')
  // The main thread's profile is the largest (tsx's loader thread writes its own).
  const file = readdirSync(dir)
    .map((f) => join(dir, f))
    .sort((a, b) => statSync(b).size - statSync(a).size)[0]
  if (file === undefined) throw new Error(`no profile written in ${dir}`)
  console.log(
    `\n## ${name}: ${Math.round(sample.rps)} req/s, ${sample.cpuMicrosPerRequest.toFixed(1)} µs CPU per request; ${file}\n`,
  )
  console.log(summarize(JSON.parse(readFileSync(file, 'utf8')) as Profile))
}
