import { format } from 'node:util'
import { parentPort } from 'node:worker_threads'
import { diag, type DiagLogFunction } from '@opentelemetry/api'
import { diagLogLevelFromString } from '@opentelemetry/core'
import { messageOf, spanSender, type Ask } from './span-sender.js'

/** What the service asks of the thread that sends its spans (export.ts), numbered for the answer. */
export type ExportAsk = Ask & { readonly id: number }

/**
 * What the thread answers: that it is ready (once, when it has started), an ask's result, or one
 * of the SDK's diagnostics, for the service's.
 */
export type ExportReply =
  | { readonly ready: true }
  | { readonly id: number; readonly failed?: string }
  | { readonly diagnostic: DiagLevel; readonly message: string }

export type DiagLevel = 'error' | 'warn' | 'info' | 'debug' | 'verbose'

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

const send = spanSender()

port.on('message', (ask: ExportAsk) => {
  const { id } = ask
  send(ask).then(
    () => reply({ id }),
    (error: unknown) => reply({ id, failed: messageOf(error) }),
  )
})

reply({ ready: true })
