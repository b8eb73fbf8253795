import { subscribe } from 'node:diagnostics_channel'
import type { ClientRequest } from 'node:http'
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

/*
 * An export's bytes are memory the service writes the next export into once this one is answered
 * (export.ts), and a collector may answer before it has read the whole body: an answer waits
 * until none of this thread's requests is still sending. Only the SDK's transport makes them.
 */
const sending = new Set<ClientRequest>()
const waitingForSent: Array<() => void> = []
subscribe('http.client.request.start', (message) => {
  const { request } = message as { request: ClientRequest }
  sending.add(request)
  const sent = () => {
    if (sending.delete(request) && sending.size === 0)
      for (const resume of waitingForSent.splice(0)) resume()
  }
  request.once('finish', sent).once('close', sent)
})
const allSent = (): Promise<void> =>
  sending.size === 0 ? Promise.resolve() : new Promise((resume) => waitingForSent.push(resume))

const send = spanSender()

port.on('message', (ask: ExportAsk) => {
  const { id } = ask
  send(ask)
    .then(
      () => undefined,
      (error: unknown) => messageOf(error),
    )
    .then(async (failed) => {
      await allSent()
      reply(failed === undefined ? { id } : { id, failed })
    })
})

reply({ ready: true })
