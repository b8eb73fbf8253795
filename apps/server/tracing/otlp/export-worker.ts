import { format } from 'node:util'
import { parentPort } from 'node:worker_threads'
import { diag, type DiagLogFunction } from '@opentelemetry/api'
import { diagLogLevelFromString, ExportResultCode } from '@opentelemetry/core'
import {
  convertLegacyHttpOptions,
  createOtlpHttpExportDelegate,
} from '@opentelemetry/otlp-exporter-base/node-http'
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer'

/** What the service asks of the thread that sends its spans (export.ts). */
export type Ask =
  | {
      readonly kind: 'export'
      /** An ExportTraceServiceRequest, already encoded. */
      readonly request: Uint8Array
      readonly count: number
    }
  | { readonly kind: 'flush' | 'shutdown' }

export type ExportAsk = Ask & { readonly id: number }

/** What the thread answers: the ask's result, or one of the SDK's diagnostics, for the service's. */
export type ExportReply =
  | { readonly id: number; readonly failed?: string }
  | { readonly diagnostic: DiagLevel; readonly message: string }

export type DiagLevel = 'error' | 'warn' | 'info' | 'debug' | 'verbose'

type Request = { readonly request: Uint8Array; readonly count: number }

const port = parentPort
if (port === null) throw new Error('export-worker.js runs as a worker thread (export.ts)')

const reply = (message: ExportReply) => port.postMessage(message)

// The SDK's diagnostics at the level the service was given (OTEL_LOG_LEVEL): the service writes them.
const level = diagLogLevelFromString(process.env.OTEL_LOG_LEVEL?.trim())
if (level !== undefined) {
  const forward =
    (diagnostic: DiagLevel): DiagLogFunction =>
    (message, ...args) =>
      reply({ diagnostic, message: format(message, ...args) })
  diag.setLogger(
    {
      error: forward('error'),
      warn: forward('warn'),
      info: forward('info'),
      debug: forward('debug'),
      verbose: forward('verbose'),
    },
    { logLevel: level, suppressOverrideMessage: true },
  )
}

// The SDK's OTLP/HTTP exporter as it sends protobuf, given the request already encoded.
const delegate = createOtlpHttpExportDelegate(
  convertLegacyHttpOptions({}, 'TRACES', 'v1/traces', {
    'Content-Type': 'application/x-protobuf',
  }),
  {
    serializeRequest: ({ request }: Request) => request,
    deserializeResponse: (data: Uint8Array) => ProtobufTraceSerializer.deserializeResponse(data),
  },
  'otlp_http_span_exporter',
  { name: 'span', countItems: ({ count }: Request) => count },
  undefined,
)

const messageOf = (error: unknown): string =>
  error instanceof Error ? error.message : String(error ?? 'span export failed')

port.on('message', (ask: ExportAsk) => {
  const { id } = ask
  if (ask.kind === 'export')
    delegate.export(ask, (result) =>
      reply(
        result.code === ExportResultCode.SUCCESS ? { id } : { id, failed: messageOf(result.error) },
      ),
    )
  else
    void (ask.kind === 'flush' ? delegate.forceFlush() : delegate.shutdown()).then(
      () => reply({ id }),
      (error: unknown) => reply({ id, failed: messageOf(error) }),
    )
})
