import { randomBytes } from 'node:crypto'
import { expect } from 'chai'
import { PETS } from '../../adapters/mongodb/index.js'
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

const tag = (span: JaegerSpan, key: string): unknown => span.tags.find((t) => t.key === key)?.value
const parentOf = (span: JaegerSpan) => span.references.find((r) => r.refType === 'CHILD_OF')?.spanID

/** Whether `span` is below `ancestor` in `trace`. */
const isUnder = (trace: JaegerTrace, span: JaegerSpan, ancestor: JaegerSpan): boolean => {
  const byId = new Map(trace.spans.map((s) => [s.spanID, s]))
  for (let id = parentOf(span); id !== undefined; id = byId.get(id) && parentOf(byId.get(id)!))
    if (id === ancestor.spanID) return true
  return false
}

/** A MongoDB command span on the pets collection (either generation of the conventions' names). */
const isPetsCommand = (span: JaegerSpan, command: string): boolean =>
  (tag(span, 'db.system') ?? tag(span, 'db.system.name')) === 'mongodb' &&
  (tag(span, 'db.mongodb.collection') ?? tag(span, 'db.collection.name')) === PETS &&
  (tag(span, 'db.operation') ?? tag(span, 'db.operation.name')) === command

/** The request's trace, as its log line names it. */
const traceIdOf = (service: ServiceProcess, requestId: string): string => {
  const line = service.stdout.find((l) => l.includes(`"requestId":"${requestId}"`))
  expect(line, `the log line of ${requestId}`).to.be.a('string')
  const parsed = JSON.parse(line as string) as Record<string, string>
  expect(parsed.span_id).to.match(/^[0-9a-f]{16}$/)
  expect(parsed.trace_flags).to.equal('01')
  return parsed.trace_id as string
}

/** Server span → route → MongoDB command, all in the one trace. */
const expectChain = (trace: JaegerTrace, method: string, route: string, command: string) => {
  const server = trace.spans.find((s) => tag(s, 'span.kind') === 'server')
  expect(server?.operationName).to.equal(`${method} /v1/pets`)
  expect(tag(server!, 'http.route')).to.equal('/v1/pets')
  const handler = trace.spans.find((s) => s.operationName === route)
  expect(handler, `the ${route} span`).to.not.equal(undefined)
  expect(isUnder(trace, handler!, server!)).to.equal(true)
  const middleware = trace.spans.filter((s) => tag(s, 'koa.type') === 'middleware')
  expect(middleware.map((s) => s.operationName)).to.include.members([
    'middleware - tagLogAndCatch',
    'middleware - guardApi',
  ])
  for (const s of middleware) expect(s.operationName).to.not.match(/anonymous/)
  const db = trace.spans.find((s) => isPetsCommand(s, command))
  expect(db, `the ${command} on ${PETS}`).to.not.equal(undefined)
  expect(isUnder(trace, db!, handler!)).to.equal(true)
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

  it('follows a create and a listing: server span → route → MongoDB insert / find, under the service name', async () => {
    const name = `animal-store-${randomBytes(4).toString('hex')}`
    const service = await start(name)
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
        ids.every((id) => ts.some((t) => t.traceID === id && t.spans.length > 3)),
      )
      const [create, list] = ids.map((id) => traces.find((t) => t.traceID === id))
      expect(create, 'the create trace in Jaeger').to.not.equal(undefined)
      expect(list, 'the listing trace in Jaeger').to.not.equal(undefined)
      expectChain(create!, 'POST', 'createPet', 'insert')
      expectChain(list!, 'GET', 'listPets', 'find')
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

  it('exports the spans still pending when SIGTERM comes, before the process exits 0 (over OTLP/gRPC)', async () => {
    const name = `animal-store-${randomBytes(4).toString('hex')}`
    // A batch delay longer than the test: only the shutdown's flush can send them.
    const service = await start(name, {
      OTEL_BSP_SCHEDULE_DELAY: '600000',
      SHUTDOWN_DRAIN_MS: '0',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc',
      OTEL_EXPORTER_OTLP_ENDPOINT: jaeger!.otlpGrpcEndpoint,
    })
    const reply = await service.request({ path: '/v1/pets?limit=1', headers: auth })
    expect(reply.status).to.equal(200)
    expect(await service.stop()).to.equal(0)
    const traces = await tracesOf(jaeger!, name, (ts) => ts.length > 0, 5000)
    expect(traces.map((t) => t.spans.some((s) => s.operationName === 'listPets'))).to.deep.equal([
      true,
    ])
  })
})
