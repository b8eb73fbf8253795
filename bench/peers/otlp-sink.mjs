// The local receiver of the benchmark's tracing row: accepts every OTLP/HTTP export (protobuf or
// JSON) and discards it, answering as a collector does (200, an empty response of the same type).
// It runs on the load's core, so what tracing costs is measured in the service's process.
import http from 'node:http'

const server = http.createServer((req, res) => {
  req.resume()
  req.once('end', () => {
    const type = req.headers['content-type'] ?? 'application/x-protobuf'
    const body = type.startsWith('application/json') ? '{}' : ''
    res.writeHead(200, { 'content-type': type, 'content-length': Buffer.byteLength(body) })
    res.end(body)
  })
})

server.listen(Number(process.env.PORT || 4318), '127.0.0.1')
process.once('SIGTERM', () => server.close(() => process.exit(0)))
