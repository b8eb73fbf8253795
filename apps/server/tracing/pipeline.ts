import {
  defaultResource,
  detectResources,
  envDetector,
  hostDetector,
  osDetector,
  processDetector,
  serviceInstanceIdDetector,
  type Resource,
  type ResourceDetector,
} from '@opentelemetry/resources'
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  ParentBasedSampler,
  TraceIdRatioBasedSampler,
  type Sampler,
  type SpanLimits,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace'
import { sampledAtRatio, TraceIds, type TraceIdGenerator } from './ids.js'
import { EncodingSpanProcessor } from './otlp/encoding-span-processor.js'
import { otlpHttpProtobufExporter } from './otlp/export.js'
import { RESOURCE_DETECTORS, SAMPLERS } from './settings.js'

type Env = Readonly<Record<string, string | undefined>>

/**
 * Where every span goes and what it is made with, built once from the OTEL_ variables as the
 * SDK for Node (NodeSDK) builds them, and handed to the SDK's tracer provider: the server spans
 * (server-span.ts) and the SDK's own spans share the one sampler, resource, limits, id generator
 * and processors.
 */
export type SpanPipeline = {
  readonly sampler: Sampler
  readonly resource: Resource
  readonly spanLimits: Required<
    Pick<SpanLimits, 'attributeCountLimit' | 'attributeValueLengthLimit'>
  >
  readonly idGenerator: TraceIdGenerator
  /**
   * When the sampler decides a trace that starts here by its id alone (`traceidratio`, and
   * `parentbased_traceidratio` without a caller's trace), that decision from the id's fold:
   * the sampler's own, without reading the id's hex again (ids.ts).
   */
  readonly sampleNewTrace?: ((fold: number) => boolean) | undefined
  readonly spanProcessors: ReadonlyArray<SpanProcessor>
}

const set = (env: Env, name: string): string | undefined => env[name]?.trim() || undefined

/** A number variable as the SDK reads one: blank or not a number is unset. */
const numberOf = (env: Env, name: string): number | undefined => {
  const value = Number(set(env, name) ?? Number.NaN)
  return Number.isNaN(value) ? undefined : value
}

type SamplerName = (typeof SAMPLERS)[number]

const samplerNameOf = (env: Env): SamplerName =>
  (set(env, 'OTEL_TRACES_SAMPLER') ?? 'parentbased_always_on') as SamplerName

/** A ratio sampler's argument: all traces when it is not given. */
const ratioOf = (env: Env): number => numberOf(env, 'OTEL_TRACES_SAMPLER_ARG') ?? 1

/** OTEL_TRACES_SAMPLER and its argument, as the specification names them (settings.ts checks them). */
export const samplerOf = (env: Env): Sampler => {
  const ratio = () => new TraceIdRatioBasedSampler(ratioOf(env))
  const samplers: Readonly<Record<SamplerName, () => Sampler>> = {
    always_on: () => new AlwaysOnSampler(),
    always_off: () => new AlwaysOffSampler(),
    traceidratio: ratio,
    parentbased_always_on: () => new ParentBasedSampler({ root: new AlwaysOnSampler() }),
    parentbased_always_off: () => new ParentBasedSampler({ root: new AlwaysOffSampler() }),
    parentbased_traceidratio: () => new ParentBasedSampler({ root: ratio() }),
  }
  return samplers[samplerNameOf(env)]()
}

/** For the samplers that decide a new trace by its ratio, that decision (SpanPipeline). */
export const newTraceSamplingOf = (env: Env): SpanPipeline['sampleNewTrace'] => {
  const name = samplerNameOf(env)
  return name === 'traceidratio' || name === 'parentbased_traceidratio'
    ? sampledAtRatio(ratioOf(env))
    : undefined
}

/**
 * The span limits on attributes: OTEL_SPAN_ATTRIBUTE_* first, then OTEL_ATTRIBUTE_*. A length
 * limit of 0 is no limit, given as such: the SDK's span would warn at every attribute it is set.
 */
export const spanLimitsOf = (env: Env): SpanPipeline['spanLimits'] => {
  const valueLength =
    numberOf(env, 'OTEL_SPAN_ATTRIBUTE_VALUE_LENGTH_LIMIT') ??
    numberOf(env, 'OTEL_ATTRIBUTE_VALUE_LENGTH_LIMIT') ??
    Infinity
  return {
    attributeCountLimit:
      numberOf(env, 'OTEL_SPAN_ATTRIBUTE_COUNT_LIMIT') ??
      numberOf(env, 'OTEL_ATTRIBUTE_COUNT_LIMIT') ??
      128,
    attributeValueLengthLimit: valueLength > 0 ? valueLength : Infinity,
  }
}

type DetectorName = (typeof RESOURCE_DETECTORS)[number]
const DETECTORS: Readonly<Record<DetectorName, ResourceDetector>> = {
  env: envDetector,
  host: hostDetector,
  os: osDetector,
  process: processDetector,
  serviceinstance: serviceInstanceIdDetector,
}

const isDetector = (name: string): name is DetectorName =>
  (RESOURCE_DETECTORS as ReadonlyArray<string>).includes(name)

/**
 * The resource as NodeSDK detects it: env (OTEL_SERVICE_NAME, OTEL_RESOURCE_ATTRIBUTES), process
 * and host, or the detectors OTEL_NODE_RESOURCE_DETECTORS names (`all`, `none`).
 */
export const resourceOf = (env: Env): Resource => {
  const named = (set(env, 'OTEL_NODE_RESOURCE_DETECTORS') ?? '')
    .split(',')
    .flatMap((name) => name.trim() || [])
  const detectors =
    named.length === 0
      ? [envDetector, processDetector, hostDetector]
      : named.includes('all')
        ? RESOURCE_DETECTORS.map((name) => DETECTORS[name])
        : named.includes('none')
          ? []
          : named.flatMap((name) => (isDetector(name) ? [DETECTORS[name]] : []))
  return defaultResource().merge(detectResources({ detectors }))
}

/**
 * OTLP over HTTP with protobuf, the specification's default protocol, gets the processor that
 * writes each span as it ends (otlp/); JSON and gRPC get the SDK's batch processor and exporter,
 * loaded only then (gRPC's is large).
 */
const spanProcessorOf = async (env: Env): Promise<SpanProcessor> => {
  const protocol =
    set(env, 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL') ??
    set(env, 'OTEL_EXPORTER_OTLP_PROTOCOL') ??
    'http/protobuf'
  const batching = {
    maxQueueSize: numberOf(env, 'OTEL_BSP_MAX_QUEUE_SIZE') ?? 2048,
    maxExportBatchSize: numberOf(env, 'OTEL_BSP_MAX_EXPORT_BATCH_SIZE') ?? 512,
    scheduledDelayMillis: numberOf(env, 'OTEL_BSP_SCHEDULE_DELAY') ?? 5000,
    exportTimeoutMillis: numberOf(env, 'OTEL_BSP_EXPORT_TIMEOUT') ?? 30000,
  }
  if (protocol === 'http/protobuf')
    return new EncodingSpanProcessor(otlpHttpProtobufExporter(), batching)
  const { OTLPTraceExporter } =
    protocol === 'grpc'
      ? await import('@opentelemetry/exporter-trace-otlp-grpc')
      : await import('@opentelemetry/exporter-trace-otlp-http')
  return new BatchSpanProcessor({ exporter: new OTLPTraceExporter(), ...batching })
}

/** The pipeline the OTEL_ variables describe (settings.ts has refused what they cannot mean). */
export const spanPipelineOf = async (env: Env): Promise<SpanPipeline> => ({
  sampler: samplerOf(env),
  sampleNewTrace: newTraceSamplingOf(env),
  resource: resourceOf(env),
  spanLimits: spanLimitsOf(env),
  idGenerator: new TraceIds(),
  spanProcessors: [await spanProcessorOf(env)],
})
