import {
  convertLegacyHttpOptions,
  createOtlpHttpExportDelegate,
} from '@opentelemetry/otlp-exporter-base/node-http'
import { ExportResultCode } from '@opentelemetry/core'
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer'

/** An ExportTraceServiceRequest already encoded, and the number of spans it holds. */
export type EncodedRequest = { readonly request: Uint8Array; readonly count: number }

/** Sends encoded requests to the collector; a failed send rejects with the SDK's reason. */
export type SpanSender = {
  readonly send: (request: EncodedRequest) => Promise<void>
  readonly forceFlush: () => Promise<void>
  readonly shutdown: () => Promise<void>
}

/** What a failed send, flush or shutdown says. */
export const messageOf = (error: unknown): string =>
  error instanceof Error ? error.message : String(error ?? 'span export failed')

/**
 * The SDK's OTLP/HTTP exporter as it sends protobuf, given the request already encoded: its
 * transport, endpoint, headers, timeout, compression and retries, from the OTEL_EXPORTER_OTLP_*
 * variables as they are when the sender is made.
 */
export const spanSender = (): SpanSender => {
  const delegate = createOtlpHttpExportDelegate(
    convertLegacyHttpOptions({}, 'TRACES', 'v1/traces', {
      'Content-Type': 'application/x-protobuf',
    }),
    {
      serializeRequest: ({ request }: EncodedRequest) => request,
      deserializeResponse: (data: Uint8Array) => ProtobufTraceSerializer.deserializeResponse(data),
    },
    'otlp_http_span_exporter',
    { name: 'span', countItems: ({ count }: EncodedRequest) => count },
    undefined,
  )
  return {
    send: (request) =>
      new Promise((resolve, reject) =>
        delegate.export(request, (result) =>
          result.code === ExportResultCode.SUCCESS
            ? resolve()
            : reject(new Error(messageOf(result.error))),
        ),
      ),
    forceFlush: () => delegate.forceFlush(),
    shutdown: () => delegate.shutdown(),
  }
}
