import {
  convertLegacyHttpOptions,
  createOtlpHttpExportDelegate,
} from '@opentelemetry/otlp-exporter-base/node-http'
import { ExportResultCode } from '@opentelemetry/core'
// The SDK's reader of the collector's answer alone: the package's index loads every signal's
// serializers, a few MB more in each thread that sends (the version is pinned in package.json).
import { deserializeExportTraceServiceResponse } from '@opentelemetry/otlp-transformer/build/src/trace/protobuf/response-deserializer.js'

/** An ExportTraceServiceRequest already encoded, and the number of spans it holds. */
export type EncodedRequest = { readonly request: Uint8Array; readonly count: number }

/** What the service asks of whatever sends its spans: to send a request, to flush, to stop. */
export type Ask =
  ({ readonly kind: 'export' } & EncodedRequest) | { readonly kind: 'flush' | 'shutdown' }

/** Carries out an ask; a failed one rejects with the SDK's reason. */
export type SpanSender = (ask: Ask) => Promise<void>

/** What a failed send, flush or shutdown says. */
export const messageOf = (error: unknown): string =>
  error instanceof Error ? error.message : String(error ?? 'span export failed')

/**
 * The SDK's OTLP/HTTP exporter as it sends protobuf, given the request already encoded: its
 * transport, endpoint, headers, timeout, compression and retries, from the OTEL_EXPORTER_OTLP_*
 * variables as they are when the sender is made.
 */
export const spanSender = (): SpanSender => {
  const options = convertLegacyHttpOptions({}, 'TRACES', 'v1/traces', {
    'Content-Type': 'application/x-protobuf',
  })
  // Compressed, the bytes are read by zlib, which goes on after a request is given up: shared
  // memory, written over once the export is answered (export.ts), is copied first.
  const compressed = options.compression !== 'none'
  const delegate = createOtlpHttpExportDelegate(
    options,
    {
      serializeRequest: ({ request }: EncodedRequest) =>
        compressed && request.buffer instanceof SharedArrayBuffer ? request.slice() : request,
      deserializeResponse: deserializeExportTraceServiceResponse,
    },
    'otlp_http_span_exporter',
    { name: 'span', countItems: ({ count }: EncodedRequest) => count },
    undefined,
  )
  return (ask) =>
    ask.kind === 'export'
      ? new Promise((resolve, reject) =>
          delegate.export(ask, (result) =>
            result.code === ExportResultCode.SUCCESS
              ? resolve()
              : reject(new Error(messageOf(result.error))),
          ),
        )
      : ask.kind === 'flush'
        ? delegate.forceFlush()
        : delegate.shutdown()
}
