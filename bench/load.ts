/**
 * One load run, in its own process (the launcher pins it to the other core): autocannon against
 * one server, then one JSON line on stdout. Latencies are taken from every response, in
 * fractional milliseconds, because autocannon's own histogram counts whole milliseconds.
 */
import autocannon from 'autocannon'

export type LoadSpec = {
  readonly port: number
  readonly key: string
  readonly method: 'GET' | 'POST'
  readonly path: string
  /** POST a new pet, its status cycling through available, pending, sold and none. */
  readonly newPet?: boolean
  /** Replace `{id}` in the path with a random id from 1 to this. */
  readonly randomIdUpTo?: number
  readonly connections: number
  readonly pipelining: number
  readonly seconds: number
  /** A number of requests instead of a duration (for seeding). */
  readonly amount?: number
  /** Seconds before autocannon gives a request up (its default is 10). */
  readonly timeoutSeconds?: number
}

export type LoadResult = {
  readonly responses: number
  readonly seconds: number
  readonly p50: number
  readonly p99: number
  readonly statusCodes: Readonly<Record<string, number>>
  readonly errors: number
  readonly timeouts: number
  /** The load generator's own CPU use, in % of one core: near 100 means it, not the server, limits. */
  readonly loaderCpu: number
}

const STATUSES = ['available', 'pending', 'sold', undefined]
let created = 0
const nextPet = () => {
  const status = STATUSES[created % STATUSES.length]
  created += 1
  // By hand: the largest categoryId, which JSON.stringify could not write exactly.
  const tail = status === undefined ? '' : `,"status":"${status}"`
  return `{"name":"Pet ${created}","categoryId":9223372036854775807${tail}}`
}

const percentile = (sorted: Float64Array, p: number): number =>
  sorted.length === 0
    ? NaN
    : (sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] as number)

export const runLoad = (spec: LoadSpec): Promise<LoadResult> =>
  new Promise((resolve, reject) => {
    let latencies = new Float64Array(1 << 16)
    let count = 0
    const cpuBefore = process.cpuUsage()
    const started = performance.now()
    const setupRequest = (request: autocannon.Request): autocannon.Request => {
      if (spec.newPet === true) request.body = nextPet()
      if (spec.randomIdUpTo !== undefined)
        request.path = spec.path.replace(
          '{id}',
          String(1 + Math.floor(Math.random() * spec.randomIdUpTo)),
        )
      return request
    }
    const instance = autocannon(
      {
        url: `http://127.0.0.1:${spec.port}`,
        connections: spec.connections,
        pipelining: spec.pipelining,
        duration: spec.seconds,
        ...(spec.amount === undefined ? {} : { amount: spec.amount }),
        ...(spec.timeoutSeconds === undefined ? {} : { timeout: spec.timeoutSeconds }),
        requests: [
          {
            method: spec.method,
            path: spec.path,
            headers: {
              authorization: `Bearer ${spec.key}`,
              ...(spec.newPet === true ? { 'content-type': 'application/json' } : {}),
            },
            // Only when requests differ: a setupRequest rebuilds every request, which costs the
            // load generator CPU it may not have to spare.
            ...(spec.newPet === true || spec.randomIdUpTo !== undefined ? { setupRequest } : {}),
          },
        ],
      },
      (error, result) => {
        if (error !== null && error !== undefined) return reject(error as Error)
        const cpu = process.cpuUsage(cpuBefore)
        const wall = performance.now() - started
        const sorted = latencies.subarray(0, count).sort()
        resolve({
          responses: count,
          seconds: result.duration,
          p50: percentile(sorted, 0.5),
          p99: percentile(sorted, 0.99),
          statusCodes: Object.fromEntries(
            Object.entries(result.statusCodeStats ?? {}).map(([code, stats]) => [
              code,
              stats.count ?? 0,
            ]),
          ),
          errors: result.errors,
          timeouts: result.timeouts,
          loaderCpu: Math.round(((cpu.user + cpu.system) / 1000 / wall) * 100),
        })
      },
    )
    instance.on('response', (_client, _status, _bytes, ms) => {
      if (count === latencies.length) {
        const grown = new Float64Array(latencies.length * 2)
        grown.set(latencies)
        latencies = grown
      }
      latencies[count++] = ms
    })
  })

// Run as a script: the spec is the first argument, the result the one line written.
if (process.argv[1]?.endsWith('load.ts') === true) {
  const spec = JSON.parse(process.argv[2] ?? '{}') as LoadSpec
  console.log(JSON.stringify(await runLoad(spec)))
}
