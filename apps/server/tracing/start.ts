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
import { spanPipelineOf } from './pipeline.js'
import { seamSpans } from './seams.js'
import type { TraceDetail } from './settings.js'
import type { Tracing } from './tracing.js'

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
  const pipeline = spanPipelineOf(env)
  const sdk = new NodeSDK({
    instrumentations: [],
    // Built once (pipeline.ts), so that the server spans and the SDK's spans share them.
    sampler: pipeline.sampler,
    resource: pipeline.resource,
    autoDetectResources: false,
    spanLimits: pipeline.spanLimits,
    idGenerator: pipeline.idGenerator,
    spanProcessors: [...pipeline.spanProcessors],
    contextManager: NO_CONTEXT_MANAGER,
    // Traces only: the service's metrics are Prometheus's (METRICS_PORT), its logs are stdout.
    metricReaders: [],
    logRecordProcessors: [],
  })
  if (level !== undefined) process.env.OTEL_LOG_LEVEL = level
  sdk.start()
  return {
    // settings.ts has refused any other value
    ...seamSpans(
      trace.getTracerProvider(),
      pipeline,
      (env.TRACE_DETAIL?.trim() || 'request') as TraceDetail,
    ),
    reportProblemsTo,
    shutdown: () => sdk.shutdown(),
  }
}
