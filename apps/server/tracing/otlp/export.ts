import { Worker } from 'node:worker_threads'
import { diag } from '@opentelemetry/api'
import { ExportResultCode } from '@opentelemetry/core'
import type { EncodedSpansExporter } from './encoding-span-processor.js'
import type { ExportAsk, ExportReply } from './export-worker.js'
import type { Ask, SpanSender } from './span-sender.js'
import { exportRequest } from './span-encoding.js'

type Answer = (failed: string | undefined) => void

/** Shared memory is handed out in this size and up, doubling, so that a spare fits most batches. */
const SHARED_MINIMUM = 1 << 16

/**
 * Memory shared with the thread, for the requests it sends. A copy posted to it would be the
 * thread's to free at its next garbage collection, which a thread allocating so little runs
 * seldom: megabytes of spent requests held, at every moment. The memory of an answered export is
 * kept for the next (exports leave one at a time); one sent while another is unanswered gets its
 * own.
 */
class SharedRequests {
  private spare: SharedArrayBuffer | undefined

  /** `bytes` copied into shared memory that is the caller's until it is released. */
  copy(bytes: Uint8Array): Uint8Array {
    let memory = this.spare
    if (memory === undefined || memory.byteLength < bytes.length) {
      let size = SHARED_MINIMUM
      while (size < bytes.length) size *= 2
      memory = new SharedArrayBuffer(size)
    } else this.spare = undefined
    const shared = new Uint8Array(memory, 0, bytes.length)
    shared.set(bytes)
    return shared
  }

  /** Gives back what `copy` gave, once nothing reads it any more; the larger memory is kept. */
  release(shared: Uint8Array): void {
    const memory = shared.buffer as SharedArrayBuffer
    if (this.spare === undefined || this.spare.byteLength < memory.byteLength) this.spare = memory
  }
}

/**
 * The thread that sends the spans (export-worker.ts), started by the first export and stopped by
 * the shutdown. It holds the process open only while an answer is awaited.
 *
 * A thread that cannot start (its file missing from a bundle, say) would fail again at every
 * export, each time at the price of a thread's start: the spans are then sent from this thread
 * instead, as the SDK's exporter sends them, from then on.
 */
class ExportThread {
  private worker: Worker | undefined
  private readonly waiting = new Map<number, { readonly ask: Ask; readonly answer: Answer }>()
  private nextId = 0
  /** Set once a thread could not start: the spans are sent from here from then on. */
  private here = false
  private sender: Promise<SpanSender> | undefined
  private readonly shared = new SharedRequests()

  constructor(private readonly script: URL) {}

  get started(): boolean {
    return this.worker !== undefined || this.here
  }

  /** Sends `request` (read only until this answers) and its span count. */
  export(request: Uint8Array, count: number): Promise<void> {
    if (this.here) return this.sendHere({ kind: 'export', request, count })
    const shared = this.shared.copy(request)
    return this.ask({ kind: 'export', request: shared, count }).finally(() =>
      this.shared.release(shared),
    )
  }

  ask(ask: Ask): Promise<void> {
    if (this.here) return this.sendHere(ask)
    const worker = (this.worker ??= this.start())
    const id = this.nextId++
    if (this.waiting.size === 0) worker.ref()
    return new Promise((resolve, reject) => {
      this.waiting.set(id, {
        ask,
        answer: (failed) => (failed === undefined ? resolve() : reject(new Error(failed))),
      })
      // Shared or copied, never transferred: the first ArrayBuffer detached in a process makes V8
      // check every typed array access for one, in all the code it optimises from then on.
      worker.postMessage({ ...ask, id } satisfies ExportAsk)
    })
  }

  async stop(): Promise<void> {
    const worker = this.worker
    if (worker === undefined) {
      if (this.here) await this.sendHere({ kind: 'shutdown' })
      return
    }
    try {
      await this.ask({ kind: 'shutdown' })
    } finally {
      this.worker = undefined
      await worker.terminate()
    }
  }

  private async sendHere(ask: Ask): Promise<void> {
    // Loaded only then: the service's thread otherwise runs no HTTP client (see below).
    const send = await (this.sender ??= import('./span-sender.js').then((m) => m.spanSender()))
    // Sent from here, the bytes are the sender's to keep: none of the thread's shared memory.
    return send(ask.kind === 'export' ? { ...ask, request: ask.request.slice() } : ask)
  }

  private start(): Worker {
    const worker = new Worker(this.script)
    let ready = false
    let over = false
    worker.unref()
    worker.on('message', (reply: ExportReply) => {
      if ('ready' in reply) return void (ready = true)
      if ('diagnostic' in reply) return diag[reply.diagnostic](reply.message)
      const waiting = this.waiting.get(reply.id)
      this.waiting.delete(reply.id)
      if (this.waiting.size === 0) worker.unref()
      waiting?.answer(reply.failed)
    })
    // A thread that failed or ended answers nothing more. One that had started fails what waits
    // for it, and the next export starts another; one that never started hands it to this thread.
    const ended = (why: string) => {
      if (over) return
      over = true
      if (this.worker === worker) this.worker = undefined
      const waiting = [...this.waiting.values()]
      this.waiting.clear()
      if (ready) {
        for (const { answer } of waiting) answer(why)
        return
      }
      this.here = true
      diag.warn(`${why}; spans are sent from the service's thread from now on`)
      for (const { ask, answer } of waiting)
        this.sendHere(ask).then(
          () => answer(undefined),
          (error: unknown) => answer(error instanceof Error ? error.message : String(error)),
        )
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
export const otlpHttpProtobufExporter = (
  threadScript = new URL('./export-worker.js', import.meta.url),
): EncodedSpansExporter => {
  const thread = new ExportThread(threadScript)
  let stopped = false
  return {
    export: (spans, done) => {
      if (stopped) {
        done({ code: ExportResultCode.FAILED, error: new Error('the exporter is shut down') })
        return
      }
      thread.export(exportRequest(spans), spans.count).then(
        () => done({ code: ExportResultCode.SUCCESS }),
        (error: Error) => done({ code: ExportResultCode.FAILED, error }),
      )
    },
    forceFlush: () => (thread.started ? thread.ask({ kind: 'flush' }) : Promise.resolve()),
    shutdown: () => ((stopped = true), thread.stop()),
  }
}
