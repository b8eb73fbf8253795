import { expect } from 'chai'
import * as E from 'fp-ts/lib/Either.js'
import { tracingWanted } from '../../apps/server/tracing/settings.js'
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

  it('leaves the variables of a tracing that is off unchecked', () => {
    expect(wanted({ OTEL_TRACES_SAMPLER: 'sometimes' })).to.deep.equal(E.right(false))
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

  it('honours the sampler: with always_off a request is not sampled, and its line still names its trace', async () => {
    const service = await startService({ ...ENDPOINT, OTEL_TRACES_SAMPLER: 'always_off' }, 90_000)
    try {
      const reply = await service.request({
        path: '/v1/pets',
        headers: { ...auth, 'X-Request-Id': 'unsampled' },
      })
      expect(reply.status).to.equal(200)
    } finally {
      await service.stop()
    }
    const line = service.stdout.find((l) => l.includes('"requestId":"unsampled"')) ?? '{}'
    const { trace_id, span_id, trace_flags } = JSON.parse(line) as Record<string, string>
    expect([trace_id, span_id, trace_flags]).to.satisfy(
      ([t, s, f]: string[]) => /^[0-9a-f]{32}$/.test(t!) && /^[0-9a-f]{16}$/.test(s!) && f === '00',
    )
  })

  // NODE_DEBUG=module names every CommonJS module loaded; the SDK's packages load each other so.
  const loadsSdk = async (env: Record<string, string>) => {
    const service = await startService({ ...env, NODE_DEBUG: 'module' }, 90_000)
    await service.stop()
    return service.stderr.some((line) => line.includes('@opentelemetry'))
  }

  it('loads no OpenTelemetry module when tracing is off, and loads the SDK when it is on', async () => {
    expect(await loadsSdk({})).to.equal(false)
    expect(await loadsSdk(ENDPOINT)).to.equal(true)
  })
})
