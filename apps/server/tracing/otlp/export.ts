import { Worker } from 'node:worker_threads'
import { diag } from '@opentelemetry/api'
import { ExportResultCode } from '@opentelemetry/core'
import type { EncodedSpansExporter } from './encoding-span-processor.js'
import type { Ask, ExportAsk, ExportReply } from './export-worker.js'
import { exportRequest } from './span-encoding.js'

/**
 * The thread that sends the spans (export-worker.ts), started by the first export and stopped by
 * the shutdown. It holds the process open only while an answer is awaited.
 */
class ExportThread {
  private worker: Worker | undefined
  private readonly waiting = new Map<number, (failed: string | undefined) => void>()
  private nextId = 0

  get started(): boolean {
    return this.worker !== undefined
  }

  ask(ask: Ask): Promise<void> {
    const worker = (this.worker ??= this.start())
    const id = this.nextId++
    if (this.waiting.size === 0) worker.ref()
    return new Promise((resolve, reject) => {
      this.waiting.set(id, (failed) =>
        failed === undefined ? resolve() : reject(new Error(failed)),
      )
      // Copied, not transferred: the first ArrayBuffer detached in a process makes V8 check every
      // typed array access for one, in all the code it optimises from then on.
      worker.postMessage({ ...ask, id } satisfies ExportAsk)
    })
  }

  async stop(): Promise<void> {
    const worker = this.worker
    if (worker === undefined) return
    try {
      await this.ask({ kind: 'shutdown' })
    } finally {
      this.worker = undefined
      await worker.terminate()
    }
  }

  private start(): Worker {
    const worker = new Worker(new URL('./export-worker.js', import.meta.url))
    worker.unref()
    worker.on('message', (reply: ExportReply) => {
      if ('diagnostic' in reply) return diag[reply.diagnostic](reply.message)
      const answer = this.waiting.get(reply.id)
      this.waiting.delete(reply.id)
      if (this.waiting.size === 0) worker.unref()
      answer?.(reply.failed)
    })
    // A thread that failed or ended answers nothing more: what waits for it fails, and the next
    // export starts another.
    const ended = (why: string) => {
      if (this.worker === worker) this.worker = undefined
      const waiting = [...this.waiting.values()]
      this.waiting.clear()
      for (const answer of waiting) answer(why)
    }
    worker.on('error', (error) => ended(`the span export thread failed: ${error.message}`))
    worker.on('exit', (code) => ended(`the span export thread exited (${code})`))
    return worker
  }
}

/**
 * OTLP/HTTP with protobuf, as the SDK's own exporter sends it: the same transport, endpoint,
 * headers, timeout, compression, retries and OTEL_EXPORTER_OTLP_* variables. Only the encoding
 * is the service's, as the spans arrive already written.
 *
 * The requests leave from a thread of their own. Node's HTTP client runs the same JavaScript
 * as its server (streams, the parser's callbacks, outgoing messages): a client's objects passing
 * through it in the service's thread would make that code polymorphic for every request served.
 */
export const otlpHttpProtobufExporter = (): EncodedSpansExporter => {
  const thread = new ExportThread()
  let stopped = false
  return {
    export: (spans, done) => {
      if (stopped) {
        done({ code: ExportResultCode.FAILED, error: new Error('the exporter is shut down') })
        return
      }
      // The request's bytes alone: a view is sent with the whole buffer it is part of.
      const request = new Uint8Array(exportRequest(spans))
      thread.ask({ kind: 'export', request, count: spans.count }).then(
        () => done({ code: ExportResultCode.SUCCESS }),
        (error: Error) => done({ code: ExportResultCode.FAILED, error }),
      )
    },
    forceFlush: () => (thread.started ? thread.ask({ kind: 'flush' }) : Promise.resolve()),
    shutdown: () => ((stopped = true), thread.stop()),
  }
}
