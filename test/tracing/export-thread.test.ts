import { subscribe, unsubscribe } from 'node:diagnostics_channel'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type IncomingMessage } from 'node:http'
import { createServer as createTcpServer, type Server as NetServer, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { gunzipSync } from 'node:zlib'
import { diag, DiagLogLevel } from '@opentelemetry/api'
import { ExportResultCode, type ExportResult } from '@opentelemetry/core'
import { resourceFromAttributes } from '@opentelemetry/resources'
import { expect } from 'chai'
import { exportRequest, type EncodedSpans } from '../../apps/server/tracing/otlp/span-encoding.js'
import { auth } from '../support/app.js'
import { startService } from '../support/service-process.js'
import { startFlags } from '../support/start-command.js'

type ExportModule = typeof import('../../apps/server/tracing/otlp/export.js')

/**
 * The compiled exporter: its thread runs dist/'s export-worker.js, which node loads without tsx.
 * `npm test` builds dist/ first.
 */
const compiled = async (): Promise<ExportModule> =>
  (await import(
    new URL('../../dist/apps/server/tracing/otlp/export.js', import.meta.url).href
  )) as ExportModule

type Received = {
  readonly path: string
  readonly headers: IncomingMessage['headers']
  readonly body: Buffer
}

/** `server` listening on a free loopback port: its URL, and how to close it. */
const onLoopback = async (server: NetServer) => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(resolve)),
  }
}

/** A collector on loopback that keeps each request and answers `status`, with `answer` as its body. */
const collector = async (status = 200, answer = new Uint8Array()) => {
  const received: Received[] = []
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      received.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) })
      res.writeHead(status, { 'content-type': 'application/x-protobuf' }).end(answer)
    })
  })
  return { ...(await onLoopback(server)), received }
}

const SPANS: EncodedSpans = {
  resource: resourceFromAttributes({ 'service.name': 'export-thread-test' }),
  scope: { name: 'animal-store' },
  // One Span message holding only its name ("a"): what the processor would have written.
  spans: Uint8Array.from([0x12, 0x03, 0x2a, 0x01, 0x61]),
  count: 1,
}

const exported = (
  exporter: ReturnType<ExportModule['otlpHttpProtobufExporter']>,
  spans: EncodedSpans = SPANS,
) => new Promise<ExportResult>((resolve) => exporter.export(spans, resolve))

/** Spans whose bytes are `size` of `fill` (not protobuf: the collectors here read no span). */
const spansOf = (size: number, fill: number): EncodedSpans => ({
  ...SPANS,
  spans: new Uint8Array(size).fill(fill),
})

/**
 * A collector that answers 200 as soon as a request's head arrives, and only then, `lag` ms later,
 * reads its body (chunked, as the SDK's transport sends it): an HTTP server of node:http would
 * throw away a body it has answered.
 */
const hastyCollector = async (lag: number) => {
  const bodies: Buffer[] = []
  const server = createTcpServer((socket: Socket) => {
    let pending = Buffer.alloc(0)
    let parts: Buffer[] | undefined
    /** Takes what `pending` holds of the request; false when it needs more bytes. */
    const take = (): boolean => {
      const line = pending.indexOf('\r\n')
      if (line < 0) return false
      if (parts === undefined) {
        const head = pending.indexOf('\r\n\r\n')
        if (head < 0) return false
        expect(pending.subarray(0, head).toString()).to.match(/transfer-encoding: chunked/i)
        pending = pending.subarray(head + 4)
        parts = []
        socket.write('HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n')
        socket.pause()
        setTimeout(() => socket.resume(), lag)
        return true
      }
      const size = parseInt(pending.subarray(0, line).toString(), 16)
      if (pending.length < line + 2 + size + 2) return false
      parts.push(pending.subarray(line + 2, line + 2 + size))
      pending = pending.subarray(line + 2 + size + 2)
      if (size === 0) {
        bodies.push(Buffer.concat(parts))
        parts = undefined
      }
      return true
    }
    socket.on('data', (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk])
      while (take());
    })
  })
  return { ...(await onLoopback(server)), bodies }
}

/** The SDK's diagnostics at `warn` and above, from now until `diag.disable()`. */
const keepWarnings = (): string[] => {
  const warnings: string[] = []
  const keep = (message: string) => void warnings.push(message)
  const ignore = () => {}
  diag.setLogger(
    { error: keep, warn: keep, info: ignore, debug: ignore, verbose: ignore },
    { logLevel: DiagLogLevel.WARN, suppressOverrideMessage: true },
  )
  return warnings
}

/** Runs `test` with these OTEL_ variables, which the export thread reads when it starts. */
const withEnv = async (env: Record<string, string>, test: () => Promise<void>) => {
  const before = Object.fromEntries(Object.keys(env).map((name) => [name, process.env[name]]))
  Object.assign(process.env, env)
  try {
    await test()
  } finally {
    for (const [name, value] of Object.entries(before))
      if (value === undefined) delete process.env[name]
      else process.env[name] = value
  }
}

describe('tracing: the OTLP/HTTP exports leave from a thread of their own', () => {
  it('sends the encoded request as the SDK would, and no HTTP client request runs in this thread', async () => {
    const sink = await collector()
    const requestsHere: unknown[] = []
    const onRequest = (message: unknown) => requestsHere.push(message)
    subscribe('http.client.request.start', onRequest)
    try {
      await withEnv(
        {
          OTEL_EXPORTER_OTLP_ENDPOINT: sink.url,
          OTEL_EXPORTER_OTLP_HEADERS: 'x-tenant=animal-store',
        },
        async () => {
          const exporter = (await compiled()).otlpHttpProtobufExporter()
          for (let i = 0; i < 3; i++)
            expect(await exported(exporter)).to.deep.equal({ code: ExportResultCode.SUCCESS })
          await exporter.forceFlush()
          await exporter.shutdown()
        },
      )
      expect(sink.received).to.have.length(3)
      for (const { path, headers, body } of sink.received) {
        expect(path).to.equal('/v1/traces')
        expect(headers).to.include({
          'content-type': 'application/x-protobuf',
          'x-tenant': 'animal-store',
        })
        expect(body.equals(exportRequest(SPANS))).to.equal(true)
      }
      expect(requestsHere).to.have.length(0)
    } finally {
      unsubscribe('http.client.request.start', onRequest)
      await sink.close()
    }
  })

  it('gives every export its own bytes while it is unanswered, compressed or not', async () => {
    for (const compression of ['none', 'gzip']) {
      const sink = await collector()
      try {
        await withEnv(
          { OTEL_EXPORTER_OTLP_ENDPOINT: sink.url, OTEL_EXPORTER_OTLP_COMPRESSION: compression },
          async () => {
            const exporter = (await compiled()).otlpHttpProtobufExporter()
            const batches = [1, 2, 3, 4].map((fill) => spansOf(100_000 * fill, fill))
            const results = await Promise.all(batches.map((spans) => exported(exporter, spans)))
            for (const result of results)
              expect(result).to.deep.equal({ code: ExportResultCode.SUCCESS })
            await exporter.shutdown()
            const bodies = sink.received.map(({ headers, body }) =>
              headers['content-encoding'] === 'gzip' ? gunzipSync(body) : body,
            )
            expect(sink.received.map(({ headers }) => headers['content-encoding'])).to.deep.equal(
              batches.map(() => (compression === 'gzip' ? 'gzip' : undefined)),
            )
            const sorted = [...bodies].sort((a, b) => a.length - b.length)
            batches.forEach((spans, i) =>
              expect(sorted[i]?.equals(exportRequest(spans))).to.equal(true),
            )
          },
        )
      } finally {
        await sink.close()
      }
    }
  })

  it('answers an export only once its body is sent, when the collector answers first', async function () {
    this.timeout(20_000)
    const sink = await hastyCollector(300)
    // Larger than what loopback's socket buffers hold: the body is still being sent when the
    // collector's answer arrives, and the next export reuses the memory the first was read from.
    const first = spansOf(24 << 20, 0x11)
    const second = spansOf(24 << 20, 0x22)
    try {
      await withEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: sink.url }, async () => {
        const exporter = (await compiled()).otlpHttpProtobufExporter()
        expect(await exported(exporter, first)).to.deep.equal({ code: ExportResultCode.SUCCESS })
        expect(await exported(exporter, second)).to.deep.equal({ code: ExportResultCode.SUCCESS })
        await exporter.shutdown()
      })
      // Sent is not yet read: the collector may still be reading the second body.
      for (let waited = 0; sink.bodies.length < 2 && waited < 10_000; waited += 20)
        await new Promise((resolve) => setTimeout(resolve, 20))
      expect(sink.bodies).to.have.length(2)
      expect(sink.bodies[0]?.equals(exportRequest(first))).to.equal(true)
      expect(sink.bodies[1]?.equals(exportRequest(second))).to.equal(true)
    } finally {
      await sink.close()
    }
  })

  it("passes a collector's partial success on as the SDK's warning", async () => {
    // ExportTraceServiceResponse { partial_success { rejected_spans: 2, error_message: "too old" } }
    const answer = Uint8Array.from([0x0a, 0x0b, 0x08, 0x02, 0x12, 0x07, ...Buffer.from('too old')])
    const sink = await collector(200, answer)
    const warnings = keepWarnings()
    try {
      await withEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: sink.url, OTEL_LOG_LEVEL: 'warn' }, async () => {
        const exporter = (await compiled()).otlpHttpProtobufExporter()
        expect(await exported(exporter)).to.deep.equal({ code: ExportResultCode.SUCCESS })
        await exporter.shutdown()
      })
      expect(warnings).to.have.length(1)
      expect(warnings[0]).to.match(/^Received Partial Success response: \{.*"rejectedSpans":.*2/)
      expect(warnings[0]).to.include('"errorMessage":"too old"')
    } finally {
      diag.disable()
      await sink.close()
    }
  })

  it("reports a collector's refusal as a failed export, with the SDK's diagnostics in this thread's", async () => {
    const sink = await collector(400)
    const diagnostics: string[] = []
    const keep = (message: string) => void diagnostics.push(message)
    diag.setLogger(
      { error: keep, warn: keep, info: keep, debug: keep, verbose: keep },
      { logLevel: DiagLogLevel.ALL, suppressOverrideMessage: true },
    )
    try {
      await withEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: sink.url, OTEL_LOG_LEVEL: 'all' }, async () => {
        const exporter = (await compiled()).otlpHttpProtobufExporter()
        const result = await exported(exporter)
        expect(result.code).to.equal(ExportResultCode.FAILED)
        expect(result.error?.message).to.equal('Bad Request')
        await exporter.shutdown()
      })
      expect(sink.received).to.have.length(1)
      expect(diagnostics.length).to.be.above(0)
    } finally {
      diag.disable()
      await sink.close()
    }
  })

  it('sends nothing for a flush with nothing exported, and refuses exports once shut down', async () => {
    const sink = await collector()
    try {
      await withEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: sink.url }, async () => {
        const exporter = (await compiled()).otlpHttpProtobufExporter()
        await exporter.forceFlush()
        await exporter.shutdown()
        const result = await exported(exporter)
        expect(result.code).to.equal(ExportResultCode.FAILED)
        expect(result.error?.message).to.equal('the exporter is shut down')
      })
      expect(sink.received).to.have.length(0)
    } finally {
      await sink.close()
    }
  })

  /**
   * Exports three times through an exporter whose thread runs `script` (undefined: none is there),
   * and gives what the collector received, each start of the script, and the SDK's warnings.
   */
  const exportsWithThread = async (script: string | undefined) => {
    const sink = await collector()
    const dir = mkdtempSync(join(tmpdir(), 'export-thread-'))
    const starts = join(dir, 'starts')
    const file = join(dir, 'thread.mjs')
    if (script !== undefined) writeFileSync(file, script.replace('STARTS', JSON.stringify(starts)))
    const warnings = keepWarnings()
    try {
      await withEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: sink.url }, async () => {
        const exporter = (await compiled()).otlpHttpProtobufExporter(pathToFileURL(file))
        for (let i = 0; i < 3; i++)
          expect(await exported(exporter)).to.deep.equal({ code: ExportResultCode.SUCCESS })
        await exporter.forceFlush()
        await exporter.shutdown()
        expect((await exported(exporter)).code).to.equal(ExportResultCode.FAILED)
      })
      const started = script === undefined ? '' : readFileSync(starts, 'utf8')
      return { received: sink.received, started, warnings }
    } finally {
      diag.disable()
      await sink.close()
      rmSync(dir, { recursive: true, force: true })
    }
  }

  it('sends from this thread once the thread fails as it starts, and starts no other', async () => {
    const { received, started, warnings } = await exportsWithThread(
      "import { appendFileSync } from 'node:fs'\n" +
        "appendFileSync(STARTS, 'started\\n')\n" +
        "throw new Error('no thread here')\n",
    )
    expect(received).to.have.length(3)
    for (const { path, body } of received) {
      expect(path).to.equal('/v1/traces')
      expect(body.equals(exportRequest(SPANS))).to.equal(true)
    }
    expect(started).to.equal('started\n')
    expect(warnings).to.have.length(1)
    expect(warnings[0]).to.include('no thread here')
    expect(warnings[0]).to.include("spans are sent from the service's thread")
  })

  it("sends from this thread when the thread's file is missing (a bundle without it)", async () => {
    const { received, warnings } = await exportsWithThread(undefined)
    expect(received).to.have.length(3)
    expect(warnings).to.have.length(1)
    expect(warnings[0]).to.include('the span export thread failed')
  })

  it('leaves V8 typed array accesses unchecked: the service detaches no ArrayBuffer to export', async function () {
    this.timeout(60_000)
    const sink = await collector()
    // V8 writes on stdout each protector it gives up; the first detached buffer costs one. Only
    // that one is watched: Node 24 gives up TypedArrayLengthLookupChain itself, as it resolves
    // some packages (@opentelemetry/core, mongodb) for an import, with tracing on or off.
    const traced = ['--trace-protector-invalidation', ...startFlags(), 'dist/apps/server/main.js']
    const service = await startService(
      {
        OTEL_EXPORTER_OTLP_ENDPOINT: sink.url,
        OTEL_BSP_MAX_EXPORT_BATCH_SIZE: '1',
      },
      30_000,
      { command: { file: process.execPath, args: traced } },
    )
    try {
      for (let i = 0; i < 5; i++) {
        const reply = await service.request({ path: '/v1/pets?limit=1', headers: auth })
        expect(reply.status).to.equal(200)
      }
      for (let waited = 0; sink.received.length < 5 && waited < 10_000; waited += 50)
        await new Promise((resolve) => setTimeout(resolve, 50))
      expect(sink.received).to.have.length(5)
    } finally {
      expect(await service.stop()).to.equal(0)
      await sink.close()
    }
    expect(service.stdout.filter((line) => line.includes('ArrayBufferDetaching'))).to.deep.equal([])
  })
})
