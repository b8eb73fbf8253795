import { BatchSpanProcessor } from '@opentelemetry/sdk-trace'
import { expect } from 'chai'
import { EncodingSpanProcessor } from '../../apps/server/tracing/otlp/encoding-span-processor.js'
import {
  resourceOf,
  samplerOf,
  spanLimitsOf,
  spanPipelineOf,
} from '../../apps/server/tracing/pipeline.js'

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
    } finally {
      for (const name of Object.keys(env)) delete process.env[name]
      Object.assign(process.env, saved)
    }
  })

  it('writes spans as they end over http/protobuf, and gives JSON and gRPC to the SDK batch processor', async () => {
    const processorOf = (env: Record<string, string>) => spanPipelineOf(env).spanProcessors
    const [protobuf] = processorOf({})
    const [json] = processorOf({ OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' })
    const [grpc] = processorOf({
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
})
