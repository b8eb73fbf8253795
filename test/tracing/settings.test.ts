import { expect } from 'chai'
import * as E from 'fp-ts/lib/Either.js'
import {
  enumsInSpecCase,
  PROPAGATORS,
  SAMPLERS,
  TRACE_DETAILS,
  tracingWanted,
} from '../../apps/server/tracing/settings.js'
import { diagnosticLines } from '../../apps/server/tracing/start.js'
import { auth } from '../support/app.js'
import { startService } from '../support/service-process.js'

const ENDPOINT = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' }
const wanted = (env: Record<string, string>) => tracingWanted(env)

describe('tracing: which OTEL_ variables turn it on', () => {
  it('is off with none of them, on with an exporter or an endpoint', () => {
    expect(wanted({})).to.deep.equal(E.right(false))
    expect(wanted({ OTEL_SERVICE_NAME: 'pets' })).to.deep.equal(E.right(false))
    expect(wanted({ OTEL_TRACES_EXPORTER: 'otlp' })).to.deep.equal(E.right(true))
    expect(wanted(ENDPOINT)).to.deep.equal(E.right(true))
    expect(wanted({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://c:4318/v1/traces' })).to.deep.equal(
      E.right(true),
    )
  })

  it('is off with OTEL_TRACES_EXPORTER=none or OTEL_SDK_DISABLED=true, whatever else is set', () => {
    expect(wanted({ ...ENDPOINT, OTEL_TRACES_EXPORTER: 'none' })).to.deep.equal(E.right(false))
    expect(wanted({ ...ENDPOINT, OTEL_SDK_DISABLED: 'TRUE' })).to.deep.equal(E.right(false))
    expect(wanted({ ...ENDPOINT, OTEL_SDK_DISABLED: 'false' })).to.deep.equal(E.right(true))
  })

  it('refuses, naming each variable, what the SDK would otherwise ignore in silence', () => {
    const refused = wanted({
      OTEL_TRACES_EXPORTER: 'otlp',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http',
      OTEL_TRACES_SAMPLER: 'sometimes',
      OTEL_BSP_MAX_QUEUE_SIZE: '0',
      OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318',
    })
    expect(E.isLeft(refused) && refused.left.map((e) => e.split(' ')[0])).to.deep.equal([
      'OTEL_EXPORTER_OTLP_PROTOCOL',
      'OTEL_TRACES_SAMPLER',
      'OTEL_BSP_MAX_QUEUE_SIZE',
      'OTEL_EXPORTER_OTLP_ENDPOINT',
    ])
    const ratio = { ...ENDPOINT, OTEL_TRACES_SAMPLER: 'parentbased_traceidratio' }
    expect(E.isLeft(wanted({ ...ratio, OTEL_TRACES_SAMPLER_ARG: '1.5' }))).to.equal(true)
    expect(wanted({ ...ratio, OTEL_TRACES_SAMPLER_ARG: '0.25' })).to.deep.equal(E.right(true))
    expect(wanted({ OTEL_TRACES_EXPORTER: 'jaeger' })).to.deep.equal(
      E.left(['OTEL_TRACES_EXPORTER must be otlp or none (got "jaeger")']),
    )
  })

  it('checks every OTEL_ variable it documents: timeouts, resource attributes, log level, the switch', () => {
    const refusedNames = (env: Record<string, string>) => {
      const refused = wanted({ ...ENDPOINT, ...env })
      return E.isLeft(refused) ? refused.left.map((e) => e.split(' ')[0]) : []
    }
    for (const value of ['abc', '-5', '0', '1.5'])
      expect(refusedNames({ OTEL_EXPORTER_OTLP_TIMEOUT: value }), value).to.deep.equal([
        'OTEL_EXPORTER_OTLP_TIMEOUT',
      ])
    expect(refusedNames({ OTEL_EXPORTER_OTLP_TRACES_TIMEOUT: 'soon' })).to.deep.equal([
      'OTEL_EXPORTER_OTLP_TRACES_TIMEOUT',
    ])
    expect(refusedNames({ OTEL_RESOURCE_ATTRIBUTES: 'team' })).to.deep.equal([
      'OTEL_RESOURCE_ATTRIBUTES',
    ])
    expect(refusedNames({ OTEL_RESOURCE_ATTRIBUTES: 'a=%E0%A4%A' })).to.deep.equal([
      'OTEL_RESOURCE_ATTRIBUTES',
    ])
    // What the SDK's env detector would drop the whole variable for, in silence.
    for (const value of ['v=2,label=app=web', 'v=2,%zz=1', `v=2,long=${'x'.repeat(256)}`])
      expect(refusedNames({ OTEL_RESOURCE_ATTRIBUTES: value }), value).to.deep.equal([
        'OTEL_RESOURCE_ATTRIBUTES',
      ])
    expect(refusedNames({ OTEL_LOG_LEVEL: 'loud' })).to.deep.equal(['OTEL_LOG_LEVEL'])
    expect(refusedNames({ OTEL_SDK_DISABLED: 'yes' })).to.deep.equal(['OTEL_SDK_DISABLED'])
    for (const name of [
      'OTEL_ATTRIBUTE_COUNT_LIMIT',
      'OTEL_SPAN_ATTRIBUTE_COUNT_LIMIT',
      'OTEL_ATTRIBUTE_VALUE_LENGTH_LIMIT',
      'OTEL_SPAN_ATTRIBUTE_VALUE_LENGTH_LIMIT',
    ])
      for (const value of ['many', '-1', '2.5'])
        expect(refusedNames({ [name]: value }), `${name}=${value}`).to.deep.equal([name])
    expect(refusedNames({ OTEL_NODE_RESOURCE_DETECTORS: 'env,cloud' })).to.deep.equal([
      'OTEL_NODE_RESOURCE_DETECTORS',
    ])
    for (const value of ['w3c', 'tracecontext,xray', 'tracecontext,'])
      expect(refusedNames({ OTEL_PROPAGATORS: value }), value).to.deep.equal(['OTEL_PROPAGATORS'])
    expect(refusedNames({ TRACE_DETAIL: 'on' })).to.deep.equal(['TRACE_DETAIL'])
    expect(refusedNames({ TRACE_DETAIL: 'true' })).to.deep.equal(['TRACE_DETAIL'])
    const fine = {
      OTEL_EXPORTER_OTLP_TIMEOUT: '10000',
      OTEL_EXPORTER_OTLP_TRACES_TIMEOUT: '500',
      OTEL_RESOURCE_ATTRIBUTES: `deployment.environment.name=prod,service.version=2.0.0,empty=,label=app%3Dweb,long=${'x'.repeat(255)}`,
      OTEL_LOG_LEVEL: 'DEBUG',
      OTEL_SERVICE_NAME: 'pets',
      OTEL_NODE_RESOURCE_DETECTORS: 'env, host,process',
      OTEL_PROPAGATORS: 'tracecontext, baggage,b3,b3multi,jaeger',
      OTEL_SPAN_ATTRIBUTE_COUNT_LIMIT: '0',
      OTEL_ATTRIBUTE_VALUE_LENGTH_LIMIT: '256',
      TRACE_DETAIL: 'middleware',
    }
    expect(wanted({ ...ENDPOINT, ...fine })).to.deep.equal(E.right(true))
    for (const detail of TRACE_DETAILS)
      expect(wanted({ ...ENDPOINT, TRACE_DETAIL: detail })).to.deep.equal(E.right(true))
    for (const sampler of SAMPLERS)
      expect(wanted({ ...ENDPOINT, OTEL_TRACES_SAMPLER: sampler })).to.deep.equal(E.right(true))
    for (const propagator of PROPAGATORS)
      expect(wanted({ ...ENDPOINT, OTEL_PROPAGATORS: propagator })).to.deep.equal(E.right(true))
  })

  it('checks every variable with tracing off too, as it would with it on', () => {
    for (const off of [{}, { OTEL_TRACES_EXPORTER: 'none' }, { OTEL_SDK_DISABLED: 'true' }])
      for (const bad of [
        { TRACE_DETAIL: 'full' },
        { OTEL_TRACES_SAMPLER: 'bogus' },
        { OTEL_LOG_LEVEL: 'loud' },
        { OTEL_EXPORTER_OTLP_PROTOCOL: 'http' },
        { OTEL_EXPORTER_OTLP_ENDPOINT: 'ftp://x' },
        { OTEL_TRACES_EXPORTER: 'console' },
      ]) {
        const refused = wanted({ ...off, ...bad })
        expect(E.isLeft(refused) && refused.left.map((e) => e.split(' ')[0])).to.deep.equal(
          Object.keys(bad),
        )
      }
    expect(E.isLeft(wanted({ OTEL_SDK_DISABLED: 'garbage' }))).to.equal(true)
  })

  it('reports every problem at once, an unknown exporter with the rest', () => {
    const refused = wanted({ OTEL_TRACES_EXPORTER: 'console', OTEL_TRACES_SAMPLER: 'bogus' })
    expect(E.isLeft(refused) && refused.left.map((e) => e.split(' ')[0])).to.deep.equal([
      'OTEL_TRACES_EXPORTER',
      'OTEL_TRACES_SAMPLER',
    ])
  })

  it('reads the OTEL_ names in any case, and quotes a refused one as written', () => {
    expect(wanted({ OTEL_TRACES_EXPORTER: 'OTLP' })).to.deep.equal(E.right(true))
    expect(wanted({ ...ENDPOINT, OTEL_SDK_DISABLED: 'True' })).to.deep.equal(E.right(false))
    const named = {
      OTEL_TRACES_EXPORTER: ' Otlp ',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'HTTP/Protobuf',
      OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'GRPC',
      OTEL_EXPORTER_OTLP_COMPRESSION: 'GZIP',
      OTEL_EXPORTER_OTLP_TRACES_COMPRESSION: 'None',
      OTEL_TRACES_SAMPLER: 'ParentBased_TraceIdRatio',
      OTEL_PROPAGATORS: 'TraceContext, B3',
      OTEL_NODE_RESOURCE_DETECTORS: 'ENV,Host',
      OTEL_LOG_LEVEL: 'Debug',
    }
    expect(wanted(named)).to.deep.equal(E.right(true))
    expect(enumsInSpecCase({ ...named, OTEL_SERVICE_NAME: 'Pets' })).to.deep.equal({
      OTEL_TRACES_EXPORTER: 'otlp',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
      OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'grpc',
      OTEL_EXPORTER_OTLP_COMPRESSION: 'gzip',
      OTEL_EXPORTER_OTLP_TRACES_COMPRESSION: 'none',
      OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
      OTEL_PROPAGATORS: 'tracecontext, b3',
      OTEL_NODE_RESOURCE_DETECTORS: 'env,host',
      OTEL_LOG_LEVEL: 'debug',
    })
    expect(wanted({ OTEL_EXPORTER_OTLP_COMPRESSION: 'Zip' })).to.deep.equal(
      E.left(['OTEL_EXPORTER_OTLP_COMPRESSION must be one of gzip, none (got "Zip")']),
    )
    // TRACE_DETAIL is the service's own variable, exact like the others.
    expect(E.isLeft(wanted({ TRACE_DETAIL: 'Request' }))).to.equal(true)
  })

  it("states each integer variable's range, and refuses past nine digits", () => {
    expect(wanted({ OTEL_BSP_SCHEDULE_DELAY: '1000000000' })).to.deep.equal(
      E.left(['OTEL_BSP_SCHEDULE_DELAY must be an integer from 0 to 999999999 (got "1000000000")']),
    )
    expect(wanted({ OTEL_BSP_MAX_QUEUE_SIZE: '0' })).to.deep.equal(
      E.left(['OTEL_BSP_MAX_QUEUE_SIZE must be an integer from 1 to 999999999 (got "0")']),
    )
    expect(wanted({ OTEL_BSP_SCHEDULE_DELAY: '999999999' })).to.deep.equal(E.right(false))
  })
})

describe("tracing: the SDK's diagnostics", () => {
  it('prefix every line: objects on one line, each line of a stack trace', () => {
    const error = new Error('export failed')
    const text = diagnosticLines('error', 'exporter said %s', [
      'no',
      { attributes: { 'service.name': 'animal-store' }, spans: [1, 2] },
      error,
    ])
    const lines = text.split('\n')
    expect(lines.pop()).to.equal('')
    expect(lines.length).to.be.above(2)
    for (const line of lines) expect(line).to.match(/^opentelemetry error: /)
    expect(lines[0]).to.include(
      "{ attributes: { 'service.name': 'animal-store' }, spans: [ 1, 2 ] }",
    )
  })
})

describe('tracing: the service process', function () {
  this.timeout(120_000)

  it('exits 2 on an OTEL_ variable it refuses, saying which', async () => {
    const error = await startService(
      { ...ENDPOINT, OTEL_TRACES_SAMPLER: 'sometimes' },
      60_000,
    ).then(
      () => expect.fail('the service started'),
      (e: Error) => e.message,
    )
    expect(error).to.match(/exited with 2/)
    expect(error).to.match(/configuration: OTEL_TRACES_SAMPLER must be one of always_on/)
  })

  it('exits 2 on an export timeout that is not a positive integer', async () => {
    for (const value of ['abc', '-5']) {
      const error = await startService({ ...ENDPOINT, OTEL_EXPORTER_OTLP_TIMEOUT: value }).then(
        () => expect.fail(`the service started with OTEL_EXPORTER_OTLP_TIMEOUT=${value}`),
        (e: Error) => e.message,
      )
      expect(error).to.match(/exited with 2/)
      expect(error).to.include(`configuration: OTEL_EXPORTER_OTLP_TIMEOUT must be an integer`)
    }
  })

  /** The log line of one listing, made with `headers`, by a traced service started with `env`. */
  const requestLineOf = async (env: Record<string, string>, headers: Record<string, string>) => {
    const service = await startService({ ...ENDPOINT, ...env }, 90_000)
    try {
      const reply = await service.request({
        path: '/v1/pets',
        headers: { ...auth, ...headers, 'X-Request-Id': 'one' },
      })
      expect(reply.status).to.equal(200)
    } finally {
      await service.stop()
    }
    const line = service.stdout.find((l) => l.includes('"requestId":"one"')) ?? '{}'
    return JSON.parse(line) as Record<string, string | undefined>
  }

  it('honours the sampler: with always_off a request is not sampled, and its line still names its trace', async () => {
    const line = await requestLineOf({ OTEL_TRACES_SAMPLER: 'always_off' }, {})
    expect(line.trace_id).to.match(/^[0-9a-f]{32}$/)
    expect(line.span_id).to.match(/^[0-9a-f]{16}$/)
    expect(line.trace_flags).to.equal('00')
  })

  it('reads the OTEL_ names in any case: OTLP, ALWAYS_OFF, GZIP', async () => {
    const line = await requestLineOf(
      {
        OTEL_TRACES_EXPORTER: 'OTLP',
        OTEL_TRACES_SAMPLER: 'ALWAYS_OFF',
        OTEL_PROPAGATORS: 'TraceContext',
        OTEL_EXPORTER_OTLP_COMPRESSION: 'GZIP',
      },
      {},
    )
    expect(line.trace_flags).to.equal('00')
  })

  it('continues the caller trace the headers OTEL_PROPAGATORS names carry, and no other', async () => {
    const caller = '4bf92f3577b34da6a3ce929d0e0e4736'
    const headers = {
      traceparent: `00-${caller}-00f067aa0ba902b7-01`,
      b3: `${caller.replace(/^4/, '5')}-00f067aa0ba902b7-1`,
    }
    const traceOf = async (propagators: string | undefined) =>
      (
        await requestLineOf(
          propagators === undefined ? {} : { OTEL_PROPAGATORS: propagators },
          headers,
        )
      ).trace_id
    const [unset, b3, none] = await Promise.all([
      traceOf(undefined),
      traceOf('b3'),
      traceOf('none'),
    ])
    expect(unset).to.equal(caller)
    expect(b3).to.equal(headers.b3.slice(0, 32))
    expect(none)
      .to.match(/^[0-9a-f]{32}$/)
      .and.not.equal(caller)
      .and.not.equal(b3)
  })

  it('keeps stdout to JSON lines with OTEL_LOG_LEVEL=all: the SDK writes its diagnostics on stderr', async () => {
    const service = await startService({ ...ENDPOINT, OTEL_LOG_LEVEL: 'all' }, 90_000)
    try {
      const reply = await service.request({ path: '/v1/pets?limit=1', headers: auth })
      expect(reply.status).to.equal(200)
    } finally {
      await service.stop()
    }
    expect(service.stderr.filter((l) => l.startsWith('opentelemetry '))).to.not.deep.equal([])
    expect(service.stdout.length).to.be.above(2)
    for (const line of service.stdout) expect(() => JSON.parse(line), line).to.not.throw()
  })

  // NODE_DEBUG=module names every CommonJS module loaded; the SDK's packages load each other so.
  /** What the service loaded (NODE_DEBUG=module) in a start and stop. */
  const modulesLoaded = async (env: Record<string, string>) => {
    const service = await startService({ ...env, NODE_DEBUG: 'module' }, 90_000)
    await service.stop()
    return service.stderr.join('\n')
  }

  it('loads no OpenTelemetry module when tracing is off, and the SDK when it is on (gRPC when asked)', async () => {
    expect(await modulesLoaded({})).not.to.include('@opentelemetry')
    const protobuf = await modulesLoaded(ENDPOINT)
    expect(protobuf).to.include('@opentelemetry/sdk-trace')
    expect(protobuf).not.to.include('exporter-trace-otlp-grpc')
    const grpc = await modulesLoaded({ ...ENDPOINT, OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' })
    expect(grpc).to.include('exporter-trace-otlp-grpc')
  })
})
