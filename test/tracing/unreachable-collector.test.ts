import { createServer as createHttpServer } from 'node:http'
import { createServer, type Server, type Socket } from 'node:net'
import { expect } from 'chai'
import { auth } from '../support/app.js'
import { startService } from '../support/service-process.js'

/** A collector that accepts connections and never answers: every export waits for its timeout. */
const blackHole = async (): Promise<{ url: string; close: () => void }> => {
  const sockets: Socket[] = []
  const server: Server = createServer((socket) => sockets.push(socket.on('error', () => {})))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => (sockets.forEach((s) => s.destroy()), server.close()),
  }
}

/** A loopback port that nothing listens on: every connection to it is refused. */
const closedPort = async (): Promise<string> => {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  await new Promise((resolve) => server.close(resolve))
  return `http://127.0.0.1:${port}`
}

/** A collector that answers every export 400: the spans are refused, and not sent again. */
const refusingCollector = async (): Promise<{ url: string; close: () => void }> => {
  const server = createHttpServer((req, res) => {
    req.resume().on('end', () => res.writeHead(400).end())
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  return { url: `http://127.0.0.1:${port}`, close: () => server.close() }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe('tracing: a collector that does not answer', function () {
  this.timeout(180_000)

  it('never delays nor fails a request, is reported once, and the shutdown still exits 0 in time', async () => {
    const collector = await blackHole()
    const service = await startService(
      {
        OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
        OTEL_EXPORTER_OTLP_TIMEOUT: '2000', // each export gives up after 2 s
        OTEL_BSP_SCHEDULE_DELAY: '50',
        OTEL_BSP_MAX_EXPORT_BATCH_SIZE: '4',
        SHUTDOWN_DRAIN_MS: '0',
        SHUTDOWN_TIMEOUT_MS: '3000',
      },
      90_000,
    )
    try {
      const slowest: number[] = []
      // Spread over several seconds, so that many exports fail while requests are served.
      for (let i = 0; i < 40; i++) {
        const started = performance.now()
        const reply = await service.request({ path: '/v1/pets?limit=1', headers: auth })
        expect(reply.status).to.equal(200)
        slowest.push(performance.now() - started)
        await sleep(200)
      }
      // An export waits 2 s for nothing: a request that waited for one would take that long.
      expect(Math.max(...slowest)).to.be.below(1500)
      const reports = service.stdout.filter((l) => l.includes('spans could not be exported'))
      expect(reports).to.have.length(1)
      expect(JSON.parse(reports[0] as string)).to.include({ level: 40 })
    } finally {
      const signalled = Date.now()
      const code = await service.stop()
      collector.close()
      expect(code).to.equal(0)
      expect(Date.now() - signalled).to.be.below(3000 + 2000)
    }
  })

  it('with the collector refusing connections, SIGTERM exits within the drain and a bounded flush', async () => {
    const service = await startService(
      {
        OTEL_EXPORTER_OTLP_ENDPOINT: await closedPort(),
        // Nothing is exported before the signal: every span is still pending at shutdown.
        OTEL_BSP_SCHEDULE_DELAY: '600000',
        OTEL_LOG_LEVEL: 'debug',
      },
      90_000,
    )
    for (let i = 0; i < 20; i++) {
      const reply = await service.request({ path: '/v1/pets?limit=1', headers: auth })
      expect(reply.status).to.equal(200)
    }
    const signalled = Date.now()
    expect(await service.stop()).to.equal(0)
    const took = Date.now() - signalled
    // The default drain (SHUTDOWN_DRAIN_MS, 2 s), then at most 1 s for the spans; the budget
    // (SHUTDOWN_TIMEOUT_MS) is 10 s, which the flush alone used to take.
    expect(took).to.be.within(2000, 2000 + 1000 + 1000)
    // The SDK's diagnostics went to stderr: stdout is the JSON log lines and nothing else.
    expect(service.stderr.some((l) => l.startsWith('opentelemetry '))).to.equal(true)
    for (const line of service.stdout) expect(() => JSON.parse(line), line).to.not.throw()
  })

  for (const protocol of ['http/protobuf', 'http/json'])
    it(`over ${protocol}, spans a collector refuses at shutdown are reported once, at warn`, async () => {
      const collector = await refusingCollector()
      const service = await startService(
        {
          OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
          OTEL_EXPORTER_OTLP_PROTOCOL: protocol,
          // Nothing is exported before the signal: the shutdown's export is the first.
          OTEL_BSP_SCHEDULE_DELAY: '600000',
          SHUTDOWN_DRAIN_MS: '0',
        },
        90_000,
      )
      try {
        const reply = await service.request({ path: '/v1/pets?limit=1', headers: auth })
        expect(reply.status).to.equal(200)
      } finally {
        expect(await service.stop()).to.equal(0)
        collector.close()
      }
      const reports = service.stdout.filter((l) => l.includes('spans could not be exported'))
      expect(reports).to.have.length(1)
      expect(JSON.parse(reports[0] as string)).to.include({ level: 40 })
    })

  it('starts every stderr line of a diagnostic with its prefix, printed objects included', async () => {
    const service = await startService(
      { OTEL_EXPORTER_OTLP_ENDPOINT: await closedPort(), OTEL_LOG_LEVEL: 'DEBUG' },
      90_000,
    )
    try {
      expect((await service.request({ path: '/v1/pets?limit=1', headers: auth })).status).to.equal(
        200,
      )
    } finally {
      expect(await service.stop()).to.equal(0)
    }
    // The SDK's debug lines print objects (a resource, an export's result) among them.
    expect(service.stderr.some((l) => l.startsWith('opentelemetry debug: '))).to.equal(true)
    for (const line of service.stderr)
      expect(line).to.match(/^opentelemetry (error|warn|info|debug|verbose): /)
  })
})
