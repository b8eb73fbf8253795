import { randomBytes } from 'node:crypto'
import { createServer } from 'node:net'
import { expect } from 'chai'
import { auth } from '../support/app.js'
import {
  requireJaeger,
  tracesOf,
  type Jaeger,
  type JaegerSpan,
  type JaegerTrace,
} from '../support/jaeger.js'
import { freshDatabaseName, requireMongo, uriWithDatabase } from '../support/mongo.js'
import { startService, type ServiceProcess } from '../support/service-process.js'

const CALLER_TRACE = '4bf92f3577b34da6a3ce929d0e0e4736'
const CALLER_SPAN = '00f067aa0ba902b7'

/** `count` loopback ports free now. */
const freePorts = async (count: number): Promise<number[]> => {
  const servers = Array.from({ length: count }, () => createServer())
  await Promise.all(servers.map((s) => new Promise<void>((ok) => s.listen(0, '127.0.0.1', ok))))
  const ports = servers.map((s) => (s.address() as { port: number }).port)
  await Promise.all(servers.map((s) => new Promise((ok) => s.close(ok))))
  return ports
}

const tag = (span: JaegerSpan, key: string): unknown => span.tags.find((t) => t.key === key)?.value
const parentOf = (span: JaegerSpan) => span.references.find((r) => r.refType === 'CHILD_OF')?.spanID

/** The parent of `span` in `trace`. */
const parentIn = (trace: JaegerTrace, span: JaegerSpan): JaegerSpan | undefined =>
  trace.spans.find((s) => s.spanID === parentOf(span))

/** The request's trace, as its log line names it. */
const traceIdOf = (service: ServiceProcess, requestId: string): string => {
  const line = service.stdout.find((l) => l.includes(`"requestId":"${requestId}"`))
  expect(line, `the log line of ${requestId}`).to.be.a('string')
  const parsed = JSON.parse(line as string) as Record<string, string>
  expect(parsed.span_id).to.match(/^[0-9a-f]{16}$/)
  expect(parsed.trace_flags).to.equal('01')
  return parsed.trace_id as string
}

/**
 * Server span > operation span > store span, each the parent of the next, in the one trace; with
 * no operation span (the default detail), server span > store span.
 */
const expectChain = (
  trace: JaegerTrace,
  method: string,
  operation: string | undefined,
  storeCall: string,
) => {
  const server = trace.spans.find((s) => tag(s, 'span.kind') === 'server')
  expect(server?.operationName).to.equal(`${method} /v1/pets`)
  expect(tag(server!, 'http.route')).to.equal('/v1/pets')
  expect(tag(server!, 'http.request.method')).to.equal(method)
  expect(tag(server!, 'client.address')).to.equal('127.0.0.1')
  const handler =
    operation === undefined ? server : trace.spans.find((s) => s.operationName === operation)
  expect(handler, `the ${operation} span`).to.not.equal(undefined)
  expect(parentIn(trace, handler!)).to.equal(operation === undefined ? undefined : server)
  const store = trace.spans.find((s) => s.operationName === storeCall)
  expect(store, `the ${storeCall} span`).to.not.equal(undefined)
  expect(parentIn(trace, store!)).to.equal(handler)
  expect([tag(store!, 'span.kind'), tag(store!, 'db.system.name')]).to.deep.equal([
    'client',
    'mongodb',
  ])
  // No middleware spans unless TRACE_DETAIL=middleware asks for them.
  expect(trace.spans.map((s) => s.operationName).sort()).to.deep.equal(
    [`${method} /v1/pets`, ...(operation === undefined ? [] : [operation]), storeCall].sort(),
  )
}

describe('tracing: traces in a real Jaeger (test/jaeger), the service on MongoDB', function () {
  this.timeout(180_000)
  let jaeger: Jaeger | undefined
  let uri = ''
  before(function () {
    uri = uriWithDatabase(requireMongo(this), freshDatabaseName())
    jaeger = requireJaeger(this)
  })
  after(() => jaeger?.stop())

  const start = (serviceName: string, env: Record<string, string> = {}) =>
    startService(
      {
        MONGODB_URI: uri,
        OTEL_TRACES_EXPORTER: 'otlp',
        OTEL_EXPORTER_OTLP_ENDPOINT: jaeger!.otlpEndpoint,
        OTEL_SERVICE_NAME: serviceName,
        OTEL_BSP_SCHEDULE_DELAY: '100',
        ...env,
      },
      90_000,
    )

  // The default detail, and TRACE_DETAIL=operation.
  for (const operations of [false, true])
    it(`follows a create and a listing: server span > ${operations ? 'operation > ' : ''}store call, under the service name`, async () => {
      const name = `animal-store-${randomBytes(4).toString('hex')}`
      const service = await start(name, operations ? { TRACE_DETAIL: 'operation' } : {})
      try {
        const created = await service.request({
          method: 'POST',
          path: '/v1/pets',
          headers: { ...auth, 'Content-Type': 'application/json', 'X-Request-Id': 'trace-create' },
          body: '{"name":"Rex","categoryId":7}',
        })
        expect(created.status).to.equal(201)
        const listed = await service.request({
          path: '/v1/pets?limit=5',
          headers: { ...auth, 'X-Request-Id': 'trace-list' },
        })
        expect(listed.status).to.equal(200)
        await new Promise((resolve) => setTimeout(resolve, 300)) // the log's batch
        const ids = [traceIdOf(service, 'trace-create'), traceIdOf(service, 'trace-list')]
        const traces = await tracesOf(jaeger!, name, (ts) =>
          ids.every((id) =>
            ts.some((t) => t.traceID === id && t.spans.length >= (operations ? 3 : 2)),
          ),
        )
        const [create, list] = ids.map((id) => traces.find((t) => t.traceID === id))
        expect(create, 'the create trace in Jaeger').to.not.equal(undefined)
        expect(list, 'the listing trace in Jaeger').to.not.equal(undefined)
        expectChain(create!, 'POST', operations ? 'createPet' : undefined, 'insertPet')
        expectChain(list!, 'GET', operations ? 'listPets' : undefined, 'listPetPage')
        for (const t of [create!, list!])
          expect(Object.values(t.processes).map((p) => p.serviceName)).to.deep.equal([name])
      } finally {
        await service.stop()
      }
    })

  it("continues a caller's traceparent, over OTLP/JSON with the resource's attributes; the probes are not traced", async () => {
    const name = `animal-store-${randomBytes(4).toString('hex')}`
    const service = await start(name, {
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment.name=test,team=pets',
    })
    try {
      const probe = await service.request({
        path: '/readyz',
        headers: { traceparent: `00-${'1'.repeat(32)}-${CALLER_SPAN}-01` },
      })
      expect(probe.status).to.equal(200)
      const reply = await service.request({
        path: '/v1/pets?limit=1',
        headers: { ...auth, traceparent: `00-${CALLER_TRACE}-${CALLER_SPAN}-01` },
      })
      expect(reply.status).to.equal(200)
      const traces = await tracesOf(jaeger!, name, (ts) => ts.length > 0)
      expect(traces.map((t) => t.traceID)).to.deep.equal([CALLER_TRACE])
      const trace = traces[0]!
      const server = trace.spans.find((s) => tag(s, 'span.kind') === 'server')
      expect(parentOf(server!)).to.equal(CALLER_SPAN)
      const tags = Object.values(trace.processes)[0]?.tags ?? []
      expect(tags).to.deep.include.members([
        { key: 'deployment.environment.name', type: 'string', value: 'test' },
        { key: 'team', type: 'string', value: 'pets' },
      ])
    } finally {
      await service.stop()
    }
  })

  // OTLP/HTTP with protobuf is written by the service's own processor, gRPC by the SDK's exporter.
  for (const protocol of ['http/protobuf', 'grpc'] as const)
    it(`exports the spans still pending when SIGTERM comes, before the process exits 0 (over ${protocol})`, async () => {
      const name = `animal-store-${randomBytes(4).toString('hex')}`
      // A batch delay longer than the test: only the shutdown's flush can send them.
      const service = await start(name, {
        OTEL_BSP_SCHEDULE_DELAY: '600000',
        SHUTDOWN_DRAIN_MS: '0',
        OTEL_EXPORTER_OTLP_PROTOCOL: protocol,
        ...(protocol === 'grpc' ? { OTEL_EXPORTER_OTLP_ENDPOINT: jaeger!.otlpGrpcEndpoint } : {}),
      })
      const reply = await service.request({ path: '/v1/pets?limit=1', headers: auth })
      expect(reply.status).to.equal(200)
      expect(await service.stop()).to.equal(0)
      const traces = await tracesOf(jaeger!, name, (ts) => ts.length > 0, 5000)
      expect(
        traces.map((t) => t.spans.some((s) => s.operationName === 'GET /v1/pets')),
      ).to.deep.equal([true])
    })

  it('test/jaeger/start.sh takes the OTLP and query ports it is given', async function () {
    const ports = await freePorts(2)
    const fixed = requireJaeger(this, ports)
    try {
      expect([fixed.otlpEndpoint, fixed.queryUrl]).to.deep.equal(
        ports.map((port) => `http://127.0.0.1:${port}`),
      )
      expect((await fetch(`${fixed.queryUrl}/api/services`)).status).to.equal(200)
    } finally {
      fixed.stop()
    }
  })
})
