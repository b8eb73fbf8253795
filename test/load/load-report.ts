import type { CreateAnswer } from './drive-creates.js'
import type { Verdict } from './verify-creates.js'

export type LoadReport = {
  readonly instances: number
  readonly concurrency: number
  readonly seconds: number
  readonly seeded: number
  readonly requests: number
  readonly created: number
  /** Answers per second over the whole run, all instances together. */
  readonly perSecond: number
  readonly latencyMs: { readonly p50: number; readonly p99: number; readonly max: number }
  /** Status → count; 0 stands for no answer. */
  readonly statuses: Readonly<Record<string, number>>
  readonly perInstance: ReadonlyArray<number>
  /**
   * CPU ms per answered request while the load ran: the service processes together, the
   * database server (null unless the runner started it), the load itself. Steadier than
   * req/s on a shared machine; null where /proc is not there.
   */
  readonly cpuMsPerRequest: {
    readonly services: number | null
    readonly database: number | null
    readonly load: number
  }
  readonly verdict: Verdict
  /** Every answer 201, nothing lost, nothing stored twice or without its 201. */
  readonly ok: boolean
}

const percentile = (sorted: ReadonlyArray<number>, p: number) =>
  Math.round(
    (sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0) * 10,
  ) / 10

const perRequest = (ms: number | undefined, requests: number) =>
  ms === undefined || requests === 0 ? null : Math.round((ms / requests) * 1000) / 1000

export const summarise = (
  options: { instances: number; concurrency: number; seconds: number; seed: number },
  answers: ReadonlyArray<CreateAnswer>,
  verdict: Verdict,
  cpuMs: { services?: number | undefined; database?: number | undefined; load: number },
): LoadReport => {
  const ms = answers.map((a) => a.ms).sort((a, b) => a - b)
  const statuses: Record<string, number> = {}
  for (const a of answers) statuses[a.status] = (statuses[a.status] ?? 0) + 1
  const created = answers.filter((a) => a.status === 201).length
  const perInstance = Array.from(
    { length: options.instances },
    (_, i) => answers.filter((a) => a.instance === i && a.status === 201).length,
  )
  return {
    instances: options.instances,
    concurrency: options.concurrency,
    seconds: options.seconds,
    seeded: options.seed,
    requests: answers.length,
    created,
    perSecond: Math.round(answers.length / options.seconds),
    latencyMs: { p50: percentile(ms, 50), p99: percentile(ms, 99), max: percentile(ms, 100) },
    statuses,
    perInstance,
    cpuMsPerRequest: {
      services: perRequest(cpuMs.services, answers.length),
      database: perRequest(cpuMs.database, answers.length),
      load: perRequest(cpuMs.load, answers.length) ?? 0,
    },
    verdict,
    ok:
      created === answers.length &&
      verdict.lost === 0 &&
      verdict.duplicates === 0 &&
      verdict.storedWithout201 === 0 &&
      verdict.idsAnsweredTwice === 0 &&
      verdict.stored === options.seed + created,
  }
}
