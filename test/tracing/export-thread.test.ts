import { subscribe, unsubscribe } from 'node:diagnostics_channel'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type IncomingMessage, type Server } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
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

/** A collector on loopback that keeps each request and answers `status`. */
const collector = async (status = 200) => {
  const received: Received[] = []
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      received.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) })
      res.writeHead(status, { 'content-type': 'application/x-protobuf' }).end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    close: () => new Promise((resolve) => server.close(resolve)),
  }
}

const SPANS: EncodedSpans = {
  resource: resourceFromAttributes({ 'service.name': 'export-thread-test' }),
  scope: { name: 'animal-store' },
  // One Span message holding only its name ("a"): what the processor would have written.
  spans: Uint8Array.from([0x12, 0x03, 0x2a, 0x01, 0x61]),
  count: 1,
}

const exported = (exporter: ReturnType<ExportModule['otlpHttpProtobufExporter']>) =>
  new Promise<ExportResult>((resolve) => exporter.export(SPANS, resolve))

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
    const warnings: string[] = []
    const keep = (message: string) => void warnings.push(message)
    const ignore = () => {}
    diag.setLogger(
      { error: keep, warn: keep, info: ignore, debug: ignore, verbose: ignore },
      { logLevel: DiagLogLevel.WARN, suppressOverrideMessage: true },
    )
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
