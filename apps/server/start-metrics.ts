import type { Logger } from '../../core/index.js'
import type { PrometheusMetrics } from '../../adapters/prometheus/index.js'
import type { Config } from './config.js'
import { openFilesLimit } from './descriptor-limit.js'

/**
 * With METRICS_PORT: the metrics and their own listener. Without: nothing, and no cost at all (no
 * hook, no store decorator, no event-loop sampling, not even the adapter's modules loaded).
 */
export const startMetrics = async (
  config: Config,
  logger: Logger,
): Promise<PrometheusMetrics | undefined> => {
  if (config.metricsPort === undefined) return undefined
  const { createPrometheusMetrics } = await import('../../adapters/prometheus/index.js')
  const { createMetricsServer } = await import('./metrics-server.js')
  const metrics = createPrometheusMetrics({ maxDescriptors: openFilesLimit() })
  const server = createMetricsServer(metrics)
  // Not in the way of shutdown: the API's server decides when the process ends.
  server.unref()
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(config.metricsPort, config.metricsHost, () => resolve())
  })
  const address = server.address()
  const port = typeof address === 'object' && address !== null ? address.port : config.metricsPort
  // Not `port`: scripts read the API's port from the first "port" in the log.
  logger.info({ metricsPort: port, metricsHost: config.metricsHost }, 'metrics listening')
  return metrics
}
