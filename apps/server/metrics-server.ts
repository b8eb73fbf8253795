import { createServer, type Server } from 'node:http'
import type { PrometheusMetrics } from '../../adapters/prometheus/index.js'

/**
 * `GET /metrics` on a listener of its own (METRICS_PORT, loopback unless METRICS_HOST says
 * otherwise): never reachable through the API's port, so it needs neither a key nor a token.
 */
export const createMetricsServer = (metrics: PrometheusMetrics): Server =>
  createServer((req, res) => {
    const known = req.url === '/metrics'
    const readOnly = req.method === 'GET' || req.method === 'HEAD'
    if (!known || !readOnly) {
      res.writeHead(known ? 405 : 404, {
        'Content-Type': 'text/plain; charset=utf-8',
        ...(known ? { Allow: 'GET, HEAD' } : {}),
      })
      return res.end(known ? 'method not allowed\n' : 'not found: try /metrics\n')
    }
    metrics.render().then(
      (text) => {
        res.writeHead(200, { 'Content-Type': metrics.contentType, 'Cache-Control': 'no-store' })
        res.end(req.method === 'HEAD' ? undefined : text)
      },
      () => {
        res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' })
        res.end('metrics could not be collected\n')
      },
    )
  })
