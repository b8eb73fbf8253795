/**
 * Jaeger v2 for the tracing suites (test/jaeger): built with Go on first use, started on free
 * loopback ports, stopped by its pid. In CI a Jaeger that cannot start fails the suite; locally
 * the suite says why it is skipped.
 */
import { execFileSync } from 'node:child_process'

const JAEGER = 'test/jaeger'

export type Jaeger = {
  /** For OTEL_EXPORTER_OTLP_ENDPOINT (OTLP over HTTP). */
  readonly otlpEndpoint: string
  /** The same with OTEL_EXPORTER_OTLP_PROTOCOL=grpc. */
  readonly otlpGrpcEndpoint: string
  /** Jaeger's query API (`/api/traces`); the source build serves no UI. */
  readonly queryUrl: string
  readonly stop: () => void
}

/** A span as Jaeger's query API gives it. */
export type JaegerSpan = {
  readonly traceID: string
  readonly spanID: string
  readonly operationName: string
  readonly references: ReadonlyArray<{ readonly refType: string; readonly spanID: string }>
  readonly tags: ReadonlyArray<{ readonly key: string; readonly value: unknown }>
  readonly processID: string
}
export type JaegerTrace = {
  readonly traceID: string
  readonly spans: ReadonlyArray<JaegerSpan>
  readonly processes: Record<
    string,
    {
      readonly serviceName: string
      readonly tags: ReadonlyArray<{
        readonly key: string
        readonly type: string
        readonly value: unknown
      }>
    }
  >
}

const startJaeger = (ports: ReadonlyArray<number>): Jaeger => {
  const out = execFileSync(`${JAEGER}/start.sh`, ports.map(String), {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const vars = Object.fromEntries(
    out
      .trim()
      .split('\n')
      .map((l) => l.split(/=(.*)/s).slice(0, 2)),
  )
  return {
    otlpEndpoint: vars.OTEL_EXPORTER_OTLP_ENDPOINT as string,
    otlpGrpcEndpoint: vars.OTLP_GRPC_ENDPOINT as string,
    queryUrl: vars.JAEGER_QUERY_URL as string,
    stop: () => execFileSync(`${JAEGER}/stop.sh`, [vars.JAEGER_PID as string], { stdio: 'ignore' }),
  }
}

/**
 * Jaeger for the calling suite, or the suite skipped with the reason (never in CI); on the OTLP
 * and query ports given, else on free ones.
 */
export const requireJaeger = (
  context: Mocha.Context,
  ports: ReadonlyArray<number> = [],
): Jaeger => {
  try {
    return startJaeger(ports)
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr ?? String(error)
    const why = `no Jaeger for the tracing suite: install Go so that ${JAEGER}/start.sh can build it (${stderr.trim()})`
    if (process.env.CI === 'true') throw new Error(why)
    console.warn(`\n!!! ${why}\n!!! The tracing suite is SKIPPED in this run.\n`)
    return context.skip()
  }
}

/** The traces of `service` that Jaeger holds, once `found` is true of them (or the time is up). */
export const tracesOf = async (
  jaeger: Jaeger,
  service: string,
  found: (traces: ReadonlyArray<JaegerTrace>) => boolean,
  timeoutMs = 30_000,
): Promise<ReadonlyArray<JaegerTrace>> => {
  const url = `${jaeger.queryUrl}/api/traces?service=${encodeURIComponent(service)}&limit=100`
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const reply = await fetch(url)
    const traces = reply.ok ? ((await reply.json()) as { data: JaegerTrace[] }).data : []
    if (found(traces) || Date.now() > deadline) return traces
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
}
