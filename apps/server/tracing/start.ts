import { register } from 'node:module'
import { context, isSpanContextValid, trace } from '@opentelemetry/api'
import { getRPCMetadata, setGlobalErrorHandler } from '@opentelemetry/core'
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http'
import { KoaInstrumentation } from '@opentelemetry/instrumentation-koa'
import { MongoDBInstrumentation } from '@opentelemetry/instrumentation-mongodb'
import { NodeSDK } from '@opentelemetry/sdk-node'
import { createAddHookMessageChannel } from 'import-in-the-middle'
import type { Logger } from '../../../core/index.js'
import type { TraceIds, Tracing } from './tracing.js'

/** The probes are asked every few seconds by the orchestrator: traces of them would bury the rest. */
const PROBES = new Set(['/healthz', '/readyz'])

/** The request's own span (the server span the http instrumentation keeps), else the active one. */
const currentIds = (): TraceIds | undefined => {
  const active = context.active()
  const ids = (getRPCMetadata(active)?.span ?? trace.getSpan(active))?.spanContext()
  if (ids === undefined || !isSpanContextValid(ids)) return undefined
  const flags = ids.traceFlags.toString(16).padStart(2, '0')
  return { trace_id: ids.traceId, span_id: ids.spanId, trace_flags: flags }
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
 * Starts the OpenTelemetry SDK, configured by the standard OTEL_ variables (exporter, endpoint,
 * protocol, resource, sampler, batch processor), with the http, koa and mongodb instrumentations.
 * Call it before koa, node:http or mongodb is imported: ES modules are instrumented only as they
 * load, through the loader hook registered here for exactly the modules instrumented.
 */
export const startTracing = async (): Promise<Tracing> => {
  const { registerOptions, waitForAllMessagesAcknowledged } = createAddHookMessageChannel()
  register('import-in-the-middle/hook.mjs', import.meta.url, registerOptions)
  const reportProblemsTo = firstProblemOnly()
  const sdk = new NodeSDK({
    instrumentations: [
      new HttpInstrumentation({ ignoreIncomingRequestHook: (req) => PROBES.has(req.url ?? '') }),
      new KoaInstrumentation(),
      new MongoDBInstrumentation(),
    ],
    // Traces only: the service's metrics are Prometheus's (METRICS_PORT), its logs are stdout.
    metricReaders: [],
    logRecordProcessors: [],
  })
  sdk.start()
  await waitForAllMessagesAcknowledged()
  return { currentIds, reportProblemsTo, shutdown: () => sdk.shutdown() }
}
