import {
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  TraceFlags,
  type AttributeValue,
  type Attributes,
} from '@opentelemetry/api'
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer'
import { resourceFromAttributes } from '@opentelemetry/resources'
import { AlwaysOnSampler, TracerProvider, type ReadableSpan } from '@opentelemetry/sdk-trace'
import { expect } from 'chai'
import fc from 'fast-check'
import { ProtobufWriter } from '../../apps/server/tracing/otlp/protobuf-writer.js'
import { exportRequest, writeSpan } from '../../apps/server/tracing/otlp/span-encoding.js'
import { keptSpans } from '../support/spans.js'

/** Spans as the SDK makes them, kept as they end. */
const sdkSpans = (resource: Attributes) => {
  const { ended, processor } = keptSpans()
  const provider = new TracerProvider({
    resource: resourceFromAttributes(resource),
    sampler: new AlwaysOnSampler(),
    spanProcessors: [processor],
  })
  return { tracer: provider.getTracer('animal-store', '3.0.0'), ended }
}

const ours = (spans: ReadonlyArray<ReadableSpan>): Buffer => {
  const writer = new ProtobufWriter(8)
  for (const span of spans) writeSpan(writer, span)
  const [first] = spans as [ReadableSpan]
  return Buffer.from(
    exportRequest({
      resource: first.resource,
      scope: first.instrumentationScope,
      spans: writer.take(),
      count: spans.length,
    }),
  )
}
const theirs = (spans: ReadonlyArray<ReadableSpan>): Buffer =>
  Buffer.from(ProtobufTraceSerializer.serializeRequest([...spans]) as Uint8Array)

// Strings past 127 and 16,383 bytes take longer lengths; non-ASCII takes the UTF-8 path.
const text = fc.oneof(
  fc.string({ maxLength: 20 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.string({ minLength: 120, maxLength: 400 }),
  fc.constant('x'.repeat(17_000)),
)
const scalar: fc.Arbitrary<AttributeValue> = fc.oneof(
  text,
  fc.boolean(),
  fc.integer(),
  fc.integer({ min: -(2 ** 53) + 1, max: 2 ** 53 - 1 }),
  fc.constantFrom(2 ** 60, -(2 ** 62), 2 ** 64, -0.5, 1e-300),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
)
const value: fc.Arbitrary<AttributeValue> = fc.oneof(
  scalar,
  // Values that recur from span to span, as a server span's do: written once, then copied.
  fc.constantFrom('GET', '/v1/pets', 200, 8080, true),
  fc.array(fc.string({ maxLength: 8 }), { maxLength: 4 }),
  fc.array(fc.integer(), { maxLength: 4 }),
  fc.array(fc.boolean(), { maxLength: 4 }),
)
const attributes = fc.dictionary(
  fc.oneof(
    fc.string({ minLength: 1, maxLength: 30 }),
    fc.constantFrom('http.route', 'url.path', 'server.port'),
  ),
  value,
  { maxKeys: 6 },
)
// Times from 1970 to past 2106 (2^32 seconds), with every nanosecond count.
const time = fc.tuple(
  fc.integer({ min: 0, max: 2 ** 33 }),
  fc.integer({ min: 0, max: 999_999_999 }),
)
const spanShape = fc.record({
  name: text,
  kind: fc.constantFrom(
    SpanKind.INTERNAL,
    SpanKind.SERVER,
    SpanKind.CLIENT,
    SpanKind.PRODUCER,
    SpanKind.CONSUMER,
  ),
  attributes,
  start: time,
  length: fc.integer({ min: 0, max: 10 ** 12 }),
  status: fc.oneof(
    fc.constant({ code: SpanStatusCode.UNSET }),
    fc.constant({ code: SpanStatusCode.OK }),
    fc.record({ code: fc.constant(SpanStatusCode.ERROR), message: text }),
  ),
  events: fc.array(fc.record({ name: text, attributes }), { maxLength: 2 }),
  linked: fc.boolean(),
  remoteParent: fc.option(fc.boolean(), { nil: undefined }),
})

describe('tracing: spans written as OTLP protobuf the moment they end', () => {
  it('writes every span byte for byte as the SDK exporter would', () => {
    fc.assert(
      fc.property(
        attributes,
        fc.array(spanShape, { minLength: 1, maxLength: 4 }),
        (resource, shapes) => {
          const { tracer, ended } = sdkSpans(resource)
          let previous = ROOT_CONTEXT
          for (const shape of shapes) {
            const parent =
              shape.remoteParent === undefined
                ? ROOT_CONTEXT
                : trace.setSpanContext(ROOT_CONTEXT, {
                    traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
                    spanId: '00f067aa0ba902b7',
                    traceFlags: TraceFlags.SAMPLED,
                    isRemote: shape.remoteParent,
                  })
            const links = shape.linked
              ? [{ context: trace.getSpanContext(previous) ?? ended[0]?.spanContext() }]
              : []
            const span = tracer.startSpan(
              shape.name,
              {
                kind: shape.kind,
                attributes: shape.attributes,
                startTime: shape.start,
                links: links.flatMap((l) =>
                  l.context === undefined ? [] : [{ ...l, context: l.context }],
                ),
              },
              parent,
            )
            for (const e of shape.events) span.addEvent(e.name, e.attributes, shape.start)
            span.setStatus(shape.status)
            const [seconds, nanos] = shape.start
            const end = seconds * 1e9 + nanos + shape.length
            span.end([Math.floor(end / 1e9), Math.floor(end % 1e9)])
            previous = trace.setSpan(ROOT_CONTEXT, span)
          }
          expect(ours(ended).equals(theirs(ended))).to.equal(true)
        },
      ),
      { numRuns: 300 },
    )
  })

  it('writes an attribute that recurs as it wrote it, and one that changed afresh', () => {
    const { tracer, ended } = sdkSpans({})
    for (const [route, port] of [
      ['/v1/pets', 8080],
      ['/v1/pets', 8080],
      ['/v1/pets/:petId', 8080],
      ['/v1/pets/:petId', 9090],
    ] as const)
      tracer.startSpan('s', { attributes: { 'http.route': route, 'server.port': port } }).end()
    expect(ours(ended).equals(theirs(ended))).to.equal(true)
  })

  it('writes an array attribute afresh each time: the same array may have changed since', () => {
    const { tracer, ended } = sdkSpans({})
    tracer.startSpan('s').end()
    const [template] = ended as [ReadableSpan]
    const withTags = (tags: string[]): ReadableSpan =>
      Object.create(template, { attributes: { value: { tags } } }) as ReadableSpan
    const tags = ['a']
    const writer = new ProtobufWriter(8)
    const asTheyWere: ReadableSpan[] = []
    for (let round = 0; round < 3; round++) {
      writeSpan(writer, withTags(tags))
      asTheyWere.push(withTags([...tags]))
      tags.push('b')
    }
    const bytes = exportRequest({
      resource: template.resource,
      scope: template.instrumentationScope,
      spans: writer.take(),
      count: 3,
    })
    expect(Buffer.from(bytes).equals(theirs(asTheyWere))).to.equal(true)
  })

  it('writes times exactly, past 2^53 nanoseconds', () => {
    const { tracer, ended } = sdkSpans({})
    const span = tracer.startSpan('t', { startTime: [4_294_967_295, 999_999_999] })
    span.end([4_294_967_296, 1])
    const bytes = ours(ended)
    const field = (tag: number, nanos: bigint) => {
      const encoded = Buffer.alloc(9, tag)
      encoded.writeBigUInt64LE(nanos, 1)
      return encoded
    }
    // fields 7 and 8, fixed64: the start and the end in nanoseconds since 1970
    expect(bytes.includes(field(0x39, 4_294_967_295n * 1_000_000_000n + 999_999_999n))).to.equal(
      true,
    )
    expect(bytes.includes(field(0x41, 4_294_967_296n * 1_000_000_000n + 1n))).to.equal(true)
    expect(bytes.equals(theirs(ended))).to.equal(true)
  })
})
