/**
 * One measurement: a load process pinned to the other core, and around it the server's CPU
 * time (before and after) and resident memory (sampled while the load runs).
 */
import { spawn } from 'node:child_process'
import { LOAD_CORE, pinned, type Server } from './servers.js'
import type { LoadResult, LoadSpec } from './load.js'

export type Sample = {
  readonly rps: number
  /** Latencies in milliseconds. */
  readonly p50: number
  readonly p99: number
  readonly cpuMicrosPerRequest: number
  /** The highest resident set seen while the load ran, in MB. */
  readonly rssUnderLoadMB: number
  readonly responses: number
  readonly loaderCpu: number
  /** Responses with another status, failed and timed-out requests. */
  readonly unexpected: number
  /** Anything but the expected status on every response; empty when all is well. */
  readonly problems: ReadonlyArray<string>
}

export const MB = 1024 * 1024

const runLoadProcess = (spec: LoadSpec, pin: boolean): Promise<LoadResult> =>
  new Promise((resolve, reject) => {
    const { command, args } = pinned(pin, LOAD_CORE, [
      process.execPath,
      '--import',
      'tsx',
      'bench/load.ts',
      JSON.stringify(spec),
    ])
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'inherit'] })
    let out = ''
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()))
    child.once('error', reject)
    child.once('exit', (code) => {
      const last = out.trim().split('\n').at(-1) ?? ''
      if (code === 0 && last.startsWith('{')) resolve(JSON.parse(last) as LoadResult)
      else reject(new Error(`load process exited with ${code}: ${out}`))
    })
  })

const problemsOf = (result: LoadResult, expect: number): string[] => [
  ...Object.entries(result.statusCodes)
    .filter(([code]) => Number(code) !== expect)
    .map(([code, count]) => `${count} responses with status ${code} (expected ${expect})`),
  ...(result.errors > 0 ? [`${result.errors} request errors`] : []),
  ...(result.timeouts > 0 ? [`${result.timeouts} timeouts`] : []),
  ...(result.responses === 0 ? ['no response at all'] : []),
]

export const measure = async (
  server: Server,
  spec: LoadSpec,
  expect: number,
  pin: boolean,
): Promise<Sample> => {
  let peakRss = server.rssBytes()
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, server.rssBytes())
  }, 200)
  const cpuBefore = server.cpuMicros()
  try {
    const result = await runLoadProcess(spec, pin)
    const cpu = server.cpuMicros() - cpuBefore
    return {
      rps: result.responses / result.seconds,
      // NaN (null in JSON) when nothing answered.
      p50: result.p50 ?? NaN,
      p99: result.p99 ?? NaN,
      cpuMicrosPerRequest: cpu / Math.max(1, result.responses),
      rssUnderLoadMB: Math.max(peakRss, server.rssBytes()) / MB,
      responses: result.responses,
      loaderCpu: result.loaderCpu,
      unexpected:
        Object.entries(result.statusCodes)
          .filter(([code]) => Number(code) !== expect)
          .reduce((sum, [, count]) => sum + count, 0) +
        result.errors +
        result.timeouts,
      problems: problemsOf(result, expect),
    }
  } finally {
    clearInterval(sampler)
  }
}
