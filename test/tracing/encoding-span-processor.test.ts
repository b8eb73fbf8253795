import { ExportResultCode, setGlobalErrorHandler, type ExportResult } from '@opentelemetry/core'
import { resourceFromAttributes } from '@opentelemetry/resources'
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  TracerProvider,
  type Sampler,
} from '@opentelemetry/sdk-trace'
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer'
import { expect } from 'chai'
import {
  EncodingSpanProcessor,
  type BatchSettings,
} from '../../apps/server/tracing/otlp/encoding-span-processor.js'
import { exportRequest, type EncodedSpans } from '../../apps/server/tracing/otlp/span-encoding.js'
import { keptSpans } from '../support/spans.js'

const SETTINGS: BatchSettings = {
  maxQueueSize: 8,
  maxExportBatchSize: 3,
  scheduledDelayMillis: 60_000,
  exportTimeoutMillis: 30_000,
}

/** An exporter that records each batch and answers when told (at once, by default). */
const recordingExporter = (
  answer: (done: (r: ExportResult) => void) => void = (done) =>
    done({ code: ExportResultCode.SUCCESS }),
) => {
  const batches: EncodedSpans[] = []
  return {
    batches,
    exporter: {
      export: (spans: EncodedSpans, done: (r: ExportResult) => void) => {
        batches.push(spans)
        answer(done)
      },
      forceFlush: async () => {},
      shutdown: async () => {},
    },
  }
}

const tracerWith = (processor: EncodingSpanProcessor, sampler: Sampler = new AlwaysOnSampler()) =>
  new TracerProvider({
    resource: resourceFromAttributes({ 'service.name': 'test' }),
    sampler,
    spanProcessors: [processor],
  }).getTracer('animal-store')

const endSpans = (tracer: ReturnType<typeof tracerWith>, n: number) => {
  for (let i = 0; i < n; i++) tracer.startSpan(`span ${i}`).end()
}
const tick = () => new Promise((resolve) => setImmediate(resolve))

describe('tracing: the processor that batches spans already written', () => {
  it('exports a batch as soon as it is full, and keeps the rest for the delay', async () => {
    const { batches, exporter } = recordingExporter()
    const processor = new EncodingSpanProcessor(exporter, SETTINGS)
    endSpans(tracerWith(processor), 7)
    await tick()
    expect(batches.map((b) => b.count)).to.deep.equal([3, 3])
    await processor.forceFlush()
    expect(batches.map((b) => b.count)).to.deep.equal([3, 3, 1])
    expect(batches[0]?.resource.attributes['service.name']).to.equal('test')
    expect(batches[0]?.scope.name).to.equal('animal-store')
  })

  it("writes each batch's spans alone, as the SDK's serializer would, though one writer serves them in turn", async () => {
    const { batches, exporter } = recordingExporter()
    const { ended, processor: kept } = keptSpans()
    const processor = new EncodingSpanProcessor(exporter, SETTINGS)
    const tracer = new TracerProvider({
      resource: resourceFromAttributes({ 'service.name': 'test' }),
      spanProcessors: [processor, kept],
    }).getTracer('animal-store')
    for (let i = 0; i < 8; i++)
      tracer.startSpan(`span ${i}`, { attributes: { 'http.route': `/r${i % 2}`, n: i } }).end()
    await processor.forceFlush()
    expect(batches.map((b) => b.count)).to.deep.equal([3, 3, 2])
    batches.forEach((batch, i) =>
      expect(Buffer.from(exportRequest(batch)), `batch ${i}`).to.deep.equal(
        Buffer.from(
          ProtobufTraceSerializer.serializeRequest(ended.slice(i * 3, i * 3 + 3)) as Uint8Array,
        ),
      ),
    )
  })

  it('exports what waits once the schedule delay has passed', async () => {
    const { batches, exporter } = recordingExporter()
    const processor = new EncodingSpanProcessor(exporter, { ...SETTINGS, scheduledDelayMillis: 20 })
    endSpans(tracerWith(processor), 2)
    await tick()
    expect(batches).to.have.length(0)
    await new Promise((resolve) => setTimeout(resolve, 60))
    expect(batches.map((b) => b.count)).to.deep.equal([2])
  })

  it('exports no span that is not sampled', async () => {
    const { batches, exporter } = recordingExporter()
    const processor = new EncodingSpanProcessor(exporter, SETTINGS)
    endSpans(tracerWith(processor, new AlwaysOffSampler()), 5)
    await processor.forceFlush()
    expect(batches).to.have.length(0)
  })

  it('holds at most maxQueueSize spans while an export is out, and drops the rest', async () => {
    const answers: Array<(r: ExportResult) => void> = []
    const { batches, exporter } = recordingExporter((done) => answers.push(done))
    const processor = new EncodingSpanProcessor(exporter, SETTINGS)
    const tracer = tracerWith(processor)
    endSpans(tracer, 3) // the first batch leaves and is not answered
    await tick()
    endSpans(tracer, 20) // 8 are queued, 12 dropped
    expect(batches.map((b) => b.count)).to.deep.equal([3])
    const flushed = processor.forceFlush()
    while (answers.length > 0 || batches.length < 4) {
      answers.shift()?.({ code: ExportResultCode.SUCCESS })
      await tick()
    }
    await flushed
    expect(batches.map((b) => b.count)).to.deep.equal([3, 3, 3, 2])
  })

  it('tells the global error handler of a failed export, and goes on with the next batch', async () => {
    const problems: unknown[] = []
    setGlobalErrorHandler((error) => problems.push(error))
    const { batches, exporter } = recordingExporter((done) =>
      done({ code: ExportResultCode.FAILED, error: new Error('collector down') }),
    )
    const processor = new EncodingSpanProcessor(exporter, SETTINGS)
    endSpans(tracerWith(processor), 6)
    await processor.forceFlush()
    expect(batches.map((b) => b.count)).to.deep.equal([3, 3])
    expect(problems.map(String)).to.deep.equal(['Error: collector down', 'Error: collector down'])
  })

  it('gives up an export not answered within the export timeout, and sends the next batch', async () => {
    const problems: unknown[] = []
    setGlobalErrorHandler((error) => problems.push(error))
    const { batches, exporter } = recordingExporter(() => {}) // never answers
    const processor = new EncodingSpanProcessor(exporter, { ...SETTINGS, exportTimeoutMillis: 20 })
    endSpans(tracerWith(processor), 6)
    await processor.forceFlush()
    expect(batches.map((b) => b.count)).to.deep.equal([3, 3])
    expect(problems.map(String)).to.deep.equal(['Error: Timeout', 'Error: Timeout'])
  })

  it('flushes on shutdown, then takes no more spans', async () => {
    const { batches, exporter } = recordingExporter()
    const processor = new EncodingSpanProcessor(exporter, SETTINGS)
    const tracer = tracerWith(processor)
    endSpans(tracer, 2)
    await processor.shutdown()
    endSpans(tracer, 5)
    await processor.forceFlush()
    expect(batches.map((b) => b.count)).to.deep.equal([2])
  })
})
