// The load driver, in its own process (run.ts pins it to core 1): plain autocannon with requests
// built once, no per-response JavaScript. Plain JavaScript so that nothing but autocannon runs.
// argv[2]: {port, connections, seconds, authorization, requests: [{method, path, body?}]}.
// Prints one JSON line: the result and this process's own CPU use over the run.
import autocannon from 'autocannon'

const spec = JSON.parse(process.argv[2])
const cpuBefore = process.cpuUsage()
const started = performance.now()
const result = await autocannon({
  url: `http://127.0.0.1:${spec.port}`,
  connections: spec.connections,
  duration: spec.seconds,
  requests: spec.requests.map((r) => ({
    ...r,
    headers: {
      authorization: spec.authorization,
      ...(r.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
  })),
})
const cpu = process.cpuUsage(cpuBefore)
const statusCodes = {}
for (const [code, s] of Object.entries(result.statusCodeStats ?? {})) statusCodes[code] = s.count
console.log(
  JSON.stringify({
    responses: result.requests.total,
    seconds: result.duration,
    // autocannon's histogram, whole milliseconds
    p50: result.latency.p50,
    p99: result.latency.p99,
    statusCodes,
    errors: result.errors,
    timeouts: result.timeouts,
    loaderCpu: ((cpu.user + cpu.system) / 1000 / (performance.now() - started)) * 100,
  }),
)
