import {
  convertLegacyHttpOptions,
  createOtlpHttpExportDelegate,
} from '@opentelemetry/otlp-exporter-base/node-http'
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer'
import type { EncodedSpansExporter } from './encoding-span-processor.js'
import { exportRequest, type EncodedSpans } from './span-encoding.js'

/**
 * OTLP/HTTP with protobuf, as the SDK's own exporter sends it: the same transport, endpoint,
 * headers, timeout, compression, retries and OTEL_EXPORTER_OTLP_* variables. Only the encoding
 * is the service's, as the spans arrive already written.
 */
export const otlpHttpProtobufExporter = (): EncodedSpansExporter => {
  const delegate = createOtlpHttpExportDelegate(
    convertLegacyHttpOptions({}, 'TRACES', 'v1/traces', {
      'Content-Type': 'application/x-protobuf',
    }),
    {
      serializeRequest: exportRequest,
      deserializeResponse: (data: Uint8Array) => ProtobufTraceSerializer.deserializeResponse(data),
    },
    'otlp_http_span_exporter',
    { name: 'span', countItems: (spans: EncodedSpans) => spans.count },
    undefined,
  )
  return {
    export: (spans, done) => delegate.export(spans, done),
    forceFlush: () => delegate.forceFlush(),
    shutdown: () => delegate.shutdown(),
  }
}
