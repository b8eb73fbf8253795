import { formatWithOptions } from 'node:util'
import { diag, propagation, trace, type DiagLogFunction } from '@opentelemetry/api'
import {
  diagLogLevelFromString,
  globalErrorHandler,
  setGlobalErrorHandler,
} from '@opentelemetry/core'
import { TracerProvider } from '@opentelemetry/sdk-trace'
import type { Logger } from '../../../core/index.js'
import { spanPipelineOf } from './pipeline.js'
import { propagatorOf } from './propagators.js'
import { seamSpans } from './seams.js'
import type { TraceDetail } from './settings.js'
import type { Tracing } from './tracing.js'

type Env = Readonly<Record<string, string | undefined>>

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
 * One diagnostic as stderr lines, each starting `opentelemetry <tag>:` so that an operator can
 * grep them all. Objects are printed on one line, as a log reader wants them; what still spans
 * lines (a stack trace) carries the prefix on each.
 */
export const diagnosticLines = (tag: string, message: string, args: unknown[]): string => {
  const prefix = `opentelemetry ${tag}: `
  const text = formatWithOptions({ breakLength: Infinity }, message, ...args)
  return `${prefix}${text.split(/\r?\n/).join(`\n${prefix}`)}\n`
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
      void process.stderr.write(diagnosticLines(tag, message, args))
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
 * Starts the OpenTelemetry SDK's tracer provider, configured by the standard OTEL_ variables
 * (exporter, endpoint, protocol, resource, sampler, propagators, batch processor), as the SDK for
 * Node (NodeSDK) would start it, without what the service does not use: it instruments no module
 * (the service makes its spans at its own seams, seams.ts), and registers no context manager (the
 * request's context travels in `ctx.state`, steps.ts), no metrics and no logs.
 */
export const startTracing = async (env: Env): Promise<Tracing> => {
  const reportProblemsTo = firstProblemOnly()
  diagnosticsToStderr(env)
  // Built once (pipeline.ts), so that the server spans and the SDK's spans share them.
  const pipeline = await spanPipelineOf(env)
  const provider = new TracerProvider({ ...pipeline, spanProcessors: [...pipeline.spanProcessors] })
  trace.setGlobalTracerProvider(provider)
  const propagator = await propagatorOf(env)
  if (propagator !== undefined) propagation.setGlobalPropagator(propagator)
  return {
    // settings.ts has refused any other value
    ...seamSpans(provider, pipeline, (env.TRACE_DETAIL?.trim() || 'request') as TraceDetail),
    reportProblemsTo,
    // The SDK's batch processor hands a failed export at shutdown to its caller, not to the
    // error handler: reported here, as a failure in a batch it sends on its own would be.
    shutdown: () => provider.shutdown().catch(globalErrorHandler),
  }
}
