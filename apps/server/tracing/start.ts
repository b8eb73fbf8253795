import { format } from 'node:util'
import {
  diag,
  ROOT_CONTEXT,
  trace,
  type ContextManager,
  type DiagLogFunction,
} from '@opentelemetry/api'
import { diagLogLevelFromString, setGlobalErrorHandler } from '@opentelemetry/core'
import { NodeSDK } from '@opentelemetry/sdk-node'
import type { Logger } from '../../../core/index.js'
import { seamSpans } from './seams.js'
import type { TraceDetail } from './settings.js'
import type { Tracing } from './tracing.js'
import { EncodingSpanProcessor } from './otlp/encoding-span-processor.js'
import { otlpHttpProtobufExporter } from './otlp/export.js'

type Env = Readonly<Record<string, string | undefined>>

/**
 * No context follows the code: the request's travels in `ctx.state`. The SDK's default manager
 * enables Node's promise hooks, which cost Node 20 as much as the rest of a request (steps.ts).
 */
const NO_CONTEXT_MANAGER: ContextManager = {
  active: () => ROOT_CONTEXT,
  with: (_context, fn, thisArg, ...args) => fn.call(thisArg, ...args),
  bind: (_context, target) => target,
  enable() {
    return this
  },
  disable() {
    return this
  },
}

/** The first problem is held until there is a logger to tell; later ones are dropped. */
const firstProblemOnly = () => {
  let first: string | undefined
  let logger: Logger | undefined
  let told = false
  const tell = () => {
    if (told || first === undefined || logger === undefined) return
    told = true
    logger.warn(
      { err: first },
      'tracing: spans could not be exported (later failures are not logged; requests are unaffected)',
    )
  }
  setGlobalErrorHandler((error) => {
    first ??= error instanceof Error ? error.message : String(error)
    tell()
  })
  return (to: Logger) => ((logger = to), tell())
}

/**
 * The SDK's own diagnostics (OTEL_LOG_LEVEL) go to stderr: the SDK would print them on stdout,
 * which holds the JSON log lines and nothing else.
 */
const diagnosticsToStderr = (env: Env) => {
  const level = diagLogLevelFromString(env.OTEL_LOG_LEVEL?.trim())
  if (level === undefined) return
  const line =
    (tag: string): DiagLogFunction =>
    (message, ...args) =>
      void process.stderr.write(`opentelemetry ${tag}: ${format(message, ...args)}\n`)
  diag.setLogger(
    {
      error: line('error'),
      warn: line('warn'),
      info: line('info'),
      debug: line('debug'),
      verbose: line('verbose'),
    },
    { logLevel: level, suppressOverrideMessage: true },
  )
}

const integer = (env: Env, name: string, otherwise: number): number =>
  env[name]?.trim() ? Number(env[name]) : otherwise

/**
 * OTLP over HTTP with protobuf, the specification's default protocol, gets the processor that
 * writes each span as it ends (otlp/); JSON and gRPC get the SDK's own processor and exporter.
 */
const spanProcessorsFor = (env: Env) => {
  const protocol =
    env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL?.trim() ||
    env.OTEL_EXPORTER_OTLP_PROTOCOL?.trim() ||
    'http/protobuf'
  if (protocol !== 'http/protobuf') return {}
  const processor = new EncodingSpanProcessor(otlpHttpProtobufExporter(), {
    maxQueueSize: integer(env, 'OTEL_BSP_MAX_QUEUE_SIZE', 2048),
    maxExportBatchSize: integer(env, 'OTEL_BSP_MAX_EXPORT_BATCH_SIZE', 512),
    scheduledDelayMillis: integer(env, 'OTEL_BSP_SCHEDULE_DELAY', 5000),
    exportTimeoutMillis: integer(env, 'OTEL_BSP_EXPORT_TIMEOUT', 30000),
  })
  return { spanProcessors: [processor] }
}

/**
 * Starts the OpenTelemetry SDK, configured by the standard OTEL_ variables (exporter, endpoint,
 * protocol, resource, sampler, propagators, batch processor). It instruments no module: the
 * service makes its spans at its own seams (seams.ts).
 */
export const startTracing = (env: Env): Tracing => {
  const reportProblemsTo = firstProblemOnly()
  diagnosticsToStderr(env)
  // The SDK's constructor would install its console logger for OTEL_LOG_LEVEL (on stdout, and
  // announcing itself there): it does not see the variable, which it reads nowhere else.
  const level = process.env.OTEL_LOG_LEVEL
  delete process.env.OTEL_LOG_LEVEL
  const sdk = new NodeSDK({
    instrumentations: [],
    ...spanProcessorsFor(env),
    contextManager: NO_CONTEXT_MANAGER,
    // Traces only: the service's metrics are Prometheus's (METRICS_PORT), its logs are stdout.
    metricReaders: [],
    logRecordProcessors: [],
  })
  if (level !== undefined) process.env.OTEL_LOG_LEVEL = level
  sdk.start()
  const tracer = trace.getTracer('animal-store')
  return {
    // settings.ts has refused any other value
    ...seamSpans(tracer, (env.TRACE_DETAIL?.trim() || 'request') as TraceDetail),
    reportProblemsTo,
    shutdown: () => sdk.shutdown(),
  }
}
