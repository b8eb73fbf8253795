import type {
  Attributes,
  AttributeValue,
  HrTime,
  Link,
  SpanContext,
  SpanStatus,
} from '@opentelemetry/api'
import type { InstrumentationScope } from '@opentelemetry/core'
import type { Resource } from '@opentelemetry/resources'
import type { ReadableSpan, TimedEvent } from '@opentelemetry/sdk-trace'
import { ProtobufWriter } from './protobuf-writer.js'

/*
 * OTLP's protobuf messages (opentelemetry/proto trace/v1, common/v1, resource/v1), written field
 * by field: the numbers below are the fields' numbers there.
 */

const SPAN_FLAGS_HAS_IS_REMOTE = 0x100
const SPAN_FLAGS_IS_REMOTE = 0x200

/** A time as nanoseconds since the epoch, a fixed64, exact: the sum passes 2^53, so in two halves. */
const time = (w: ProtobufWriter, [seconds, nanoseconds]: HrTime): void => {
  // seconds × 10^9 = (high × 2^16 + low) × 10^9, each product exact in a double
  const low = (seconds % 0x10000) * 1e9
  const high = Math.floor(seconds / 0x10000) * 1e9
  // high × 2^16 split at bit 32: its low 16 bits move up, the rest is the upper word
  const highLow = (high % 0x10000) * 0x10000
  const sum = (low % 0x100000000) + highLow + nanoseconds
  const lower = sum % 0x100000000
  const upper =
    Math.floor(low / 0x100000000) + Math.floor(high / 0x10000) + Math.floor(sum / 0x100000000)
  w.fixed64(lower, upper)
}

const anyValue = (w: ProtobufWriter, value: AttributeValue | undefined): void => {
  if (typeof value === 'string') {
    w.tag(1, 2)
    w.string(value)
  } else if (typeof value === 'boolean') {
    w.tag(2, 0)
    w.varint(value ? 1 : 0)
  } else if (typeof value === 'number') {
    if (Number.isSafeInteger(value) && value >= 0) {
      w.tag(3, 0)
      w.varint(value)
    } else if (Number.isInteger(value) && Math.abs(value) < 2 ** 63) {
      w.tag(3, 0)
      w.varint64(BigInt(value))
    } else {
      w.tag(4, 1)
      w.double(value)
    }
  } else if (Array.isArray(value)) {
    w.tag(5, 2)
    const array = w.begin()
    for (const item of value) {
      w.tag(1, 2)
      const at = w.begin()
      anyValue(w, item ?? undefined)
      w.end(at)
    }
    w.end(array)
  }
  // null and undefined: an empty AnyValue, as OTLP writes a value that is not set
}

/** At most this many keys' KeyValues are kept by a writer (ProtobufWriter's `memo`). */
const KEYS_KEPT = 256

/**
 * Each attribute as a KeyValue, in field `field` of the message being written. The writer keeps
 * the last KeyValue written for each key: a server span mostly repeats the one before's
 * attributes (its method, route, client, status), and copying those bytes costs less than
 * writing them again.
 */
const attributes = (w: ProtobufWriter, field: number, attributes: Attributes): void => {
  for (const key in attributes) {
    const value = attributes[key]
    w.tag(field, 2)
    const last = w.memo.get(key)
    // An array may have changed since: only a value compared whole is taken as the same.
    if (last !== undefined && last.value === value && !Array.isArray(value)) {
      w.raw(last.bytes)
      continue
    }
    const from = w.pos
    const keyValue = w.begin()
    w.tag(1, 2)
    w.string(key)
    w.tag(2, 2)
    const at = w.begin()
    anyValue(w, value)
    w.end(at)
    w.end(keyValue)
    if (last !== undefined) {
      last.value = value
      last.bytes = w.copySince(from)
    } else if (w.memo.size < KEYS_KEPT) w.memo.set(key, { value, bytes: w.copySince(from) })
  }
}

const status = (w: ProtobufWriter, { code, message }: SpanStatus): void => {
  if (message) {
    w.tag(2, 2)
    w.string(message)
  }
  w.tag(3, 0)
  w.varint(code)
}

const event = (w: ProtobufWriter, e: TimedEvent): void => {
  w.tag(1, 1)
  time(w, e.time)
  w.tag(2, 2)
  w.string(e.name)
  if (e.attributes) attributes(w, 3, e.attributes)
  w.tag(4, 0)
  w.varint(e.droppedAttributesCount ?? 0)
}

/** Fields 1 to 3 of a Span and of a Link alike: the trace id, the span id, the trace state. */
const ids = (w: ProtobufWriter, context: SpanContext): void => {
  w.tag(1, 2)
  w.hex(context.traceId)
  w.tag(2, 2)
  w.hex(context.spanId)
  const traceState = context.traceState?.serialize()
  if (traceState) {
    w.tag(3, 2)
    w.string(traceState)
  }
}

const link = (w: ProtobufWriter, { context, attributes: linked, droppedAttributesCount }: Link) => {
  ids(w, context)
  if (linked) attributes(w, 4, linked)
  w.tag(5, 0)
  w.varint(droppedAttributesCount ?? 0)
  w.tag(6, 5)
  w.fixed32((context.traceFlags & 0xff) | SPAN_FLAGS_HAS_IS_REMOTE)
}

const nested = <T>(
  w: ProtobufWriter,
  field: number,
  write: (w: ProtobufWriter, v: T) => void,
  v: T,
) => {
  w.tag(field, 2)
  const at = w.begin()
  write(w, v)
  w.end(at)
}

/** One Span message, as field 2 (spans) of a ScopeSpans. */
export const writeSpan = (w: ProtobufWriter, span: ReadableSpan): void => {
  w.tag(2, 2)
  const at = w.begin(2)
  const context = span.spanContext()
  ids(w, context)
  const parent = span.parentSpanContext
  if (parent?.spanId) {
    w.tag(4, 2)
    w.hex(parent.spanId)
  }
  w.tag(5, 2)
  w.string(span.name)
  // SpanKind in the API counts from INTERNAL = 0; in OTLP, 0 is "unspecified".
  w.tag(6, 0)
  w.varint(span.kind + 1)
  w.tag(7, 1)
  time(w, span.startTime)
  w.tag(8, 1)
  time(w, span.endTime)
  attributes(w, 9, span.attributes)
  w.tag(10, 0)
  w.varint(span.droppedAttributesCount)
  for (const e of span.events) nested(w, 11, event, e)
  w.tag(12, 0)
  w.varint(span.droppedEventsCount)
  for (const l of span.links) nested(w, 13, link, l)
  w.tag(14, 0)
  w.varint(span.droppedLinksCount)
  nested(w, 15, status, span.status)
  w.tag(16, 5)
  w.fixed32(
    (context.traceFlags & 0xff) |
      SPAN_FLAGS_HAS_IS_REMOTE |
      (parent?.isRemote === true ? SPAN_FLAGS_IS_REMOTE : 0),
  )
  w.end(at)
}

const scope = (w: ProtobufWriter, { name, version }: InstrumentationScope): void => {
  w.tag(1, 2)
  w.string(name)
  if (version) {
    w.tag(2, 2)
    w.string(version)
  }
}

const resource = (w: ProtobufWriter, r: Resource): void => {
  attributes(w, 1, r.attributes)
  w.tag(2, 0)
  w.varint(0)
}

/** The spans of one resource and scope, already written by {@link writeSpan}. */
export type EncodedSpans = {
  readonly resource: Resource
  readonly scope: InstrumentationScope
  readonly spans: Uint8Array
  readonly count: number
}

/** An ExportTraceServiceRequest holding the spans: one ResourceSpans with one ScopeSpans. */
export const exportRequest = ({ resource: r, scope: s, spans }: EncodedSpans): Uint8Array => {
  const w = new ProtobufWriter(spans.length + 1024)
  w.tag(1, 2)
  const resourceSpans = w.begin()
  nested(w, 1, resource, r)
  w.tag(2, 2)
  const scopeSpans = w.begin()
  nested(w, 1, scope, s)
  w.raw(spans)
  if (s.schemaUrl) {
    w.tag(3, 2)
    w.string(s.schemaUrl)
  }
  w.end(scopeSpans)
  if (r.schemaUrl) {
    w.tag(3, 2)
    w.string(r.schemaUrl)
  }
  w.end(resourceSpans)
  return w.written()
}
