import {
  defaultTextMapGetter,
  defaultTextMapSetter,
  propagation,
  ROOT_CONTEXT,
  trace,
  TraceFlags,
} from '@opentelemetry/api'
import { BatchSpanProcessor } from '@opentelemetry/sdk-trace'
import { expect } from 'chai'
import { EncodingSpanProcessor } from '../../apps/server/tracing/otlp/encoding-span-processor.js'
import {
  newTraceSamplingOf,
  resourceOf,
  samplerOf,
  spanLimitsOf,
  spanPipelineOf,
} from '../../apps/server/tracing/pipeline.js'
import { propagatorOf } from '../../apps/server/tracing/propagators.js'
import { SAMPLERS } from '../../apps/server/tracing/settings.js'

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736'
const SPAN = '00f067aa0ba902b7'

describe('tracing: the span pipeline the OTEL_ variables describe', () => {
  it('builds the sampler OTEL_TRACES_SAMPLER names, with OTEL_TRACES_SAMPLER_ARG as its ratio', () => {
    const sampler = (env: Record<string, string>) => samplerOf(env).toString()
    expect(sampler({})).to.match(/^ParentBased\{root=AlwaysOnSampler/)
    expect(sampler({ OTEL_TRACES_SAMPLER: 'always_on' })).to.equal('AlwaysOnSampler')
    expect(sampler({ OTEL_TRACES_SAMPLER: 'always_off' })).to.equal('AlwaysOffSampler')
    expect(sampler({ OTEL_TRACES_SAMPLER: 'parentbased_always_on' })).to.match(
      /^ParentBased\{root=AlwaysOnSampler/,
    )
    expect(sampler({ OTEL_TRACES_SAMPLER: 'parentbased_always_off' })).to.match(
      /^ParentBased\{root=AlwaysOffSampler/,
    )
    expect(
      sampler({ OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.25' }),
    ).to.equal('TraceIdRatioBased{0.25}')
    expect(
      sampler({
        OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
        OTEL_TRACES_SAMPLER_ARG: ' 0.1 ',
      }),
    ).to.match(/^ParentBased\{root=TraceIdRatioBased\{0.1\}/)
    expect(sampler({ OTEL_TRACES_SAMPLER: 'traceidratio' }), 'no ratio: all').to.equal(
      'TraceIdRatioBased{1}',
    )
  })

  it('decides a new trace by its fold under the ratio samplers only, at their ratio', () => {
    // Which samplers decide by ratio is read from the sampler built, not listed again here.
    for (const name of SAMPLERS) {
      const env = { OTEL_TRACES_SAMPLER: name, OTEL_TRACES_SAMPLER_ARG: '0.25' }
      const byRatio = samplerOf(env).toString().includes('TraceIdRatioBased')
      const quarter = newTraceSamplingOf(env)
      expect(quarter !== undefined, name).to.equal(byRatio)
      if (quarter === undefined) continue
      // A quarter of 2^32 - 1, rounded down, is 1073741823.
      expect([quarter(1073741822), quarter(1073741823)], name).to.deep.equal([true, false])
      const all = newTraceSamplingOf({ OTEL_TRACES_SAMPLER: name })!
      expect(all(0xffffffff), `${name} without a ratio: all`).to.equal(true)
    }
    expect(newTraceSamplingOf({}), 'unset: parentbased_always_on').to.equal(undefined)
    expect(
      SAMPLERS.filter((name) => newTraceSamplingOf({ OTEL_TRACES_SAMPLER: name })),
    ).to.have.length(2)
  })

  it('reads the attribute limits, the span-specific variable first', () => {
    expect(spanLimitsOf({})).to.deep.equal({
      attributeCountLimit: 128,
      attributeValueLengthLimit: Infinity,
    })
    expect(
      spanLimitsOf({ OTEL_ATTRIBUTE_COUNT_LIMIT: '5', OTEL_ATTRIBUTE_VALUE_LENGTH_LIMIT: '40' }),
    ).to.deep.equal({ attributeCountLimit: 5, attributeValueLengthLimit: 40 })
    expect(
      spanLimitsOf({
        OTEL_ATTRIBUTE_COUNT_LIMIT: '5',
        OTEL_SPAN_ATTRIBUTE_COUNT_LIMIT: '7',
        OTEL_ATTRIBUTE_VALUE_LENGTH_LIMIT: '40',
        OTEL_SPAN_ATTRIBUTE_VALUE_LENGTH_LIMIT: '20',
      }),
    ).to.deep.equal({ attributeCountLimit: 7, attributeValueLengthLimit: 20 })
    // 0 is no limit (configuration.md), which the SDK's span would warn of at every attribute.
    expect(spanLimitsOf({ OTEL_ATTRIBUTE_VALUE_LENGTH_LIMIT: '0' })).to.deep.equal({
      attributeCountLimit: 128,
      attributeValueLengthLimit: Infinity,
    })
    expect(
      spanLimitsOf({
        OTEL_ATTRIBUTE_VALUE_LENGTH_LIMIT: '40',
        OTEL_SPAN_ATTRIBUTE_VALUE_LENGTH_LIMIT: '0',
      }).attributeValueLengthLimit,
    ).to.equal(Infinity)
  })

  it('detects the resource as NodeSDK does: env, process and host, or the detectors named', async () => {
    const env = {
      OTEL_SERVICE_NAME: 'shop',
      OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment.name=test,team=pets%20and%20more',
    }
    const keys = (resource: ReturnType<typeof resourceOf>) => Object.keys(resource.attributes)
    // The env detector reads process.env, as the SDK's does.
    const saved = { ...process.env }
    Object.assign(process.env, env)
    try {
      const all = resourceOf({})
      await all.waitForAsyncAttributes?.()
      expect(all.attributes).to.include({
        'service.name': 'shop',
        'deployment.environment.name': 'test',
        team: 'pets and more',
        'process.pid': process.pid,
      })
      expect(keys(all)).to.include.members(['host.name', 'telemetry.sdk.name'])
      const processOnly = resourceOf({ OTEL_NODE_RESOURCE_DETECTORS: 'process' })
      expect(keys(processOnly)).to.include('process.pid')
      expect(keys(processOnly)).to.not.include.members(['host.name'])
      expect(processOnly.attributes['service.name']).to.match(/^unknown_service/)
      const everything = [1, 2].map(() => resourceOf({ OTEL_NODE_RESOURCE_DETECTORS: 'all' }))
      for (const resource of everything)
        expect(keys(resource)).to.include.members(['os.type', 'service.instance.id', 'host.name'])
      // A random UUID when the process starts, the same for every resource it detects after.
      const [first, second] = everything.map((r) => r.attributes['service.instance.id'])
      expect(first).to.match(
        /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
      )
      expect(second).to.equal(first)
      const none = resourceOf({ OTEL_NODE_RESOURCE_DETECTORS: 'none' })
      expect(keys(none).sort()).to.deep.equal([
        'service.name',
        'telemetry.sdk.language',
        'telemetry.sdk.name',
        'telemetry.sdk.version',
      ])
      // Without the env detector, OTEL_SERVICE_NAME is not read (docs/configuration.md).
      expect(none.attributes['service.name']).to.match(/^unknown_service:/)
      const envAndProcess = resourceOf({ OTEL_NODE_RESOURCE_DETECTORS: 'env,process' })
      expect(envAndProcess.attributes).to.include({ 'service.name': 'shop', team: 'pets and more' })
      expect(keys(envAndProcess)).to.include('process.pid').and.not.include('host.name')
    } finally {
      for (const name of Object.keys(env)) delete process.env[name]
      Object.assign(process.env, saved)
    }
  })

  it('writes spans as they end over http/protobuf, and gives JSON and gRPC to the SDK batch processor', async () => {
    const processorOf = async (env: Record<string, string>) =>
      (await spanPipelineOf(env)).spanProcessors
    const [protobuf] = await processorOf({})
    const [json] = await processorOf({ OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' })
    const [grpc] = await processorOf({
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'grpc',
    })
    try {
      expect(protobuf).to.be.instanceOf(EncodingSpanProcessor)
      expect(json).to.be.instanceOf(BatchSpanProcessor)
      expect(grpc).to.be.instanceOf(BatchSpanProcessor)
    } finally {
      await Promise.all([protobuf, json, grpc].map((p) => p?.shutdown()))
    }
  })

  it('reads the headers OTEL_PROPAGATORS names: W3C trace context and baggage when unset', async () => {
    /** Each format's headers, for a caller's span SPAN (and, in `baggage`, a member). */
    const formats: Record<string, Record<string, string>> = {
      traceparent: { traceparent: `00-${TRACE}-${SPAN}-01` },
      baggage: { baggage: 'team=pets' },
      b3: { b3: `${TRACE}-${SPAN}-1` },
      'x-b3-*': { 'x-b3-traceid': TRACE, 'x-b3-spanid': SPAN, 'x-b3-sampled': '1' },
      'uber-trace-id': { 'uber-trace-id': `${TRACE}:${SPAN}:0:1` },
    }
    /** The formats the propagator OTEL_PROPAGATORS names reads, each given alone. */
    const read = async (value: string | undefined) => {
      const propagator = await propagatorOf(value === undefined ? {} : { OTEL_PROPAGATORS: value })
      if (propagator === undefined) return undefined
      const reads = (headers: Record<string, string>) => {
        const context = propagator.extract(ROOT_CONTEXT, headers, defaultTextMapGetter)
        return (
          trace.getSpanContext(context)?.spanId === SPAN ||
          propagation.getBaggage(context) !== undefined
        )
      }
      return Object.keys(formats).filter((format) => reads(formats[format] ?? {}))
    }
    expect(await read(undefined)).to.deep.equal(['traceparent', 'baggage'])
    expect(await read('tracecontext')).to.deep.equal(['traceparent'])
    expect(await read('baggage , tracecontext,baggage')).to.deep.equal(['traceparent', 'baggage'])
    expect(await read('b3')).to.deep.equal(['b3', 'x-b3-*'])
    expect(await read('b3multi')).to.deep.equal(['b3', 'x-b3-*'])
    expect(await read('jaeger')).to.deep.equal(['uber-trace-id'])
    expect(await read('none')).to.equal(undefined)
    expect(await read('tracecontext,none')).to.equal(undefined)
    // b3 writes the one header, b3multi the several.
    const caller = trace.setSpanContext(ROOT_CONTEXT, {
      traceId: TRACE,
      spanId: SPAN,
      traceFlags: TraceFlags.SAMPLED,
    })
    const written = async (value: string) => {
      const carrier: Record<string, string> = {}
      ;(await propagatorOf({ OTEL_PROPAGATORS: value }))?.inject(
        caller,
        carrier,
        defaultTextMapSetter,
      )
      return carrier
    }
    expect(await written('b3')).to.deep.equal(formats.b3)
    expect(await written('b3multi')).to.deep.equal(formats['x-b3-*'])
  })
})
