import { diag, TraceFlags } from '@opentelemetry/api'
import {
  ExportResultCode,
  globalErrorHandler,
  type ExportResult,
  type InstrumentationScope,
} from '@opentelemetry/core'
import type { Resource } from '@opentelemetry/resources'
import type { ReadableSpan, SpanProcessor } from '@opentelemetry/sdk-trace'
import { ProtobufWriter } from './protobuf-writer.js'
import { writeSpan, type EncodedSpans } from './span-encoding.js'

/** Where the encoded spans go: the official OTLP/HTTP transport (export.ts). */
export type EncodedSpansExporter = {
  readonly export: (spans: EncodedSpans, done: (result: ExportResult) => void) => void
  readonly forceFlush: () => Promise<void>
  readonly shutdown: () => Promise<void>
}

/** The batch span processor's settings (OTEL_BSP_*), with the specification's defaults. */
export type BatchSettings = {
  readonly maxQueueSize: number
  readonly maxExportBatchSize: number
  readonly scheduledDelayMillis: number
  readonly exportTimeoutMillis: number
}

/** The server spans' scope is the service's object, the others' the SDK tracer's: equal, not one. */
const sameScope = (a: InstrumentationScope, b: InstrumentationScope): boolean =>
  a === b || (a.name === b.name && a.version === b.version && a.schemaUrl === b.schemaUrl)

type Batch = {
  readonly resource: Resource
  readonly scope: InstrumentationScope
  readonly writer: ProtobufWriter
  count: number
}

/**
 * The batch span processor, but a span is written as OTLP protobuf the moment it ends, and only
 * its bytes wait for the batch. A span object kept for seconds outlives the young generation and
 * costs the collector more than the span cost to make; the bytes are one buffer. The batching
 * (OTEL_BSP_*: queue size, batch size, delay, timeout) and what is dropped when the queue is full
 * are the SDK's BatchSpanProcessor's.
 */
export class EncodingSpanProcessor implements SpanProcessor {
  private readonly settings: BatchSettings
  /** Full batches waiting for the export, then the one being filled. */
  private readonly batches: Batch[] = []
  private queued = 0
  private dropped = 0
  private exporting: Promise<void> | undefined
  private timer: NodeJS.Timeout | undefined
  private stopped = false
  /** Set while flushing: then a batch not yet full is exported too. */
  private flushing = 0
  /** Set when the schedule delay has passed: the batch being filled leaves, full or not. */
  private due = false
  /**
   * The writer of the batch exported last, for the next batch: a writer new to each batch would
   * grow its buffer again, copying as it goes, and remember no attribute.
   */
  private spare: ProtobufWriter | undefined

  constructor(
    private readonly exporter: EncodedSpansExporter,
    settings: BatchSettings,
  ) {
    this.settings = {
      ...settings,
      maxExportBatchSize: Math.min(settings.maxExportBatchSize, settings.maxQueueSize),
    }
  }

  onStart(): void {}

  onEnd(span: ReadableSpan): void {
    if (this.stopped || (span.spanContext().traceFlags & TraceFlags.SAMPLED) === 0) return
    if (this.queued >= this.settings.maxQueueSize) {
      if (this.dropped++ === 0) diag.debug('maxQueueSize reached, dropping spans')
      return
    }
    if (this.dropped > 0) {
      diag.warn(`Dropped ${this.dropped} spans because maxQueueSize reached`)
      this.dropped = 0
    }
    const batch = this.batchFor(span)
    writeSpan(batch.writer, span)
    batch.count++
    this.queued++
    if (batch.count >= this.settings.maxExportBatchSize) void this.exportNext()
    else this.timer ??= this.schedule()
  }

  /** The batch being filled, or a new one when it is full or the span's resource or scope differ. */
  private batchFor(span: ReadableSpan): Batch {
    const last = this.batches.at(-1)
    if (
      last !== undefined &&
      last.count < this.settings.maxExportBatchSize &&
      last.resource === span.resource &&
      sameScope(last.scope, span.instrumentationScope)
    )
      return last
    const batch = {
      resource: span.resource,
      scope: span.instrumentationScope,
      writer: this.spare ?? new ProtobufWriter(),
      count: 0,
    }
    this.spare = undefined
    this.batches.push(batch)
    return batch
  }

  /** Exports batches one at a time, oldest first, while one is full (or, flushing, while any is left). */
  private schedule(): NodeJS.Timeout {
    const due = () => {
      this.due = true
      void this.exportNext()
    }
    return setTimeout(due, this.settings.scheduledDelayMillis).unref()
  }

  private exportNext(): Promise<void> {
    clearTimeout(this.timer)
    this.timer = undefined
    this.exporting ??= (async () => {
      for (;;) {
        const batch = this.batches[0]
        if (batch === undefined) break
        const filling = this.batches.length === 1 && batch.count < this.settings.maxExportBatchSize
        if (filling && this.flushing === 0 && !this.due) {
          this.timer ??= this.schedule()
          break
        }
        this.due = false
        this.batches.shift()
        this.queued -= batch.count
        await this.exportOne(batch).catch(globalErrorHandler)
      }
    })().finally(() => (this.exporting = undefined))
    return this.exporting
  }

  private async exportOne(batch: Batch): Promise<void> {
    const spans = batch.writer.take()
    this.spare = batch.writer
    if (batch.resource.asyncAttributesPending) await batch.resource.waitForAsyncAttributes?.()
    const encoded = { resource: batch.resource, scope: batch.scope, spans, count: batch.count }
    await new Promise<void>((resolve, reject) => {
      const timeout = setTimeout(
        () => reject(new Error('Timeout')),
        this.settings.exportTimeoutMillis,
      )
      this.exporter.export(encoded, (result) => {
        clearTimeout(timeout)
        if (result.code === ExportResultCode.SUCCESS) resolve()
        else reject(result.error ?? new Error('span export failed'))
      })
    })
  }

  async forceFlush(): Promise<void> {
    this.flushing++
    try {
      while (this.batches.length > 0 || this.exporting !== undefined) await this.exportNext()
    } finally {
      this.flushing--
    }
    await this.exporter.forceFlush()
  }

  async shutdown(): Promise<void> {
    if (this.stopped) return
    await this.forceFlush()
    this.stopped = true
    await this.exporter.shutdown()
  }
}
