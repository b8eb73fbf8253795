import {
  defaultTextMapSetter,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  TraceFlags,
} from '@opentelemetry/api'
import { W3CTraceContextPropagator } from '@opentelemetry/core'
import { request } from 'node:http'
import { expect } from 'chai'
import * as TE from 'fp-ts/lib/TaskEither.js'
import type { AppContext, RequestRecord, RequestTracer } from '../../adapters/koa/index.js'
import { inMemoryStorage } from '../../apps/server/storage.js'
import { propagatorOf } from '../../apps/server/tracing/propagators.js'
import { storeUnavailable } from '../../core/index.js'
import { auth, startTestApi } from '../support/app.js'
import { named, parentIdOf, recordedSpans, type RecordedSpans } from '../support/spans.js'

const CALLER_TRACE = '4bf92f3577b34da6a3ce929d0e0e4736'
const CALLER_SPAN = '00f067aa0ba902b7'

/** Runs `requests` against the composition root traced by `recorded`; the request lines. */
const traced = async (
  recorded: RecordedSpans,
  requests: (api: Awaited<ReturnType<typeof startTestApi>>) => Promise<unknown>,
  options: Parameters<typeof startTestApi>[0] = {},
): Promise<RequestRecord[]> => {
  const lines: RequestRecord[] = []
  const api = await startTestApi({
    ...options,
    tracing: recorded.tracing,
    requestLine: (r) => lines.push(r),
  })
  try {
    await requests(api)
  } finally {
    await api.close()
  }
  return lines
}

describe('tracing: the spans the service makes at its seams', () => {
  it('by default a request is its server span alone: the operation and in-process store calls make none', async () => {
    const recorded = recordedSpans()
    await traced(recorded, async (api) => {
      expect((await api.createPet({ name: 'Rex', categoryId: 7 })).status).to.equal(201)
      expect((await api.get('/pets?limit=5')).status).to.equal(200)
    })
    expect(recorded.spans().map((s) => s.name)).to.have.members(['POST /v1/pets', 'GET /v1/pets'])
  })

  it("by default a call to a store outside the process is the server span's child", async () => {
    const recorded = recordedSpans()
    const spans = recorded.tracing.storeSpans('mongodb')
    expect(spans, 'MongoDB store calls are traced by default').to.not.equal(undefined)
    expect(recorded.tracing.storeSpans(undefined), 'in-process calls are not').to.equal(undefined)
    const storage = inMemoryStorage()
    await traced(recorded, (api) => api.get('/pets?limit=5'), {
      storage: { ...storage, store: spans!.tracePetStore(storage.store) },
    })
    const [server, store] = [
      named(recorded.spans(), 'GET /v1/pets'),
      named(recorded.spans(), 'listPetPage'),
    ]
    expect(parentIdOf(store)).to.equal(server.spanContext().spanId)
    expect(store.kind).to.equal(SpanKind.CLIENT)
    expect(store.attributes).to.deep.equal({
      'db.operation.name': 'listPetPage',
      'db.system.name': 'mongodb',
    })
  })

  it('with TRACE_DETAIL=operation, a request is a server span > its operation > its store call, named as the log line says', async () => {
    const recorded = recordedSpans({ detail: 'operation' })
    const lines = await traced(recorded, async (api) => {
      expect((await api.createPet({ name: 'Rex', categoryId: 7 })).status).to.equal(201)
      expect((await api.get('/pets?limit=5')).status).to.equal(200)
    })
    const spans = recorded.spans()
    expect(spans.map((s) => s.name)).to.have.members([
      'insertPet',
      'createPet',
      'POST /v1/pets',
      'listPetPage',
      'listPets',
      'GET /v1/pets',
    ])
    for (const [server, operation, store] of [
      ['POST /v1/pets', 'createPet', 'insertPet'],
      ['GET /v1/pets', 'listPets', 'listPetPage'],
    ] as const) {
      const [s, o, st] = [named(spans, server), named(spans, operation), named(spans, store)]
      expect(s.kind).to.equal(SpanKind.SERVER)
      expect(parentIdOf(s)).to.equal(undefined)
      expect(parentIdOf(o)).to.equal(s.spanContext().spanId)
      expect(parentIdOf(st)).to.equal(o.spanContext().spanId)
      expect(st.attributes).to.deep.equal({ 'db.operation.name': store })
      const line = lines.find((l) => l.method === server.split(' ')[0])
      expect(line).to.include({
        trace_id: s.spanContext().traceId,
        span_id: s.spanContext().spanId,
        trace_flags: '01',
      })
    }
    const create = named(spans, 'POST /v1/pets')
    expect(create.attributes).to.include({
      'http.request.method': 'POST',
      'url.path': '/v1/pets',
      'url.scheme': 'http',
      'http.route': '/v1/pets',
      'http.response.status_code': 201,
      'client.address': '127.0.0.1',
      'server.address': '127.0.0.1',
    })
    expect(create.attributes['server.port']).to.be.a('number')
    expect(create.attributes).to.not.have.property('error.type')
  })

  it('a create whose body comes after its headers still has its store call under its operation', async () => {
    const recorded = recordedSpans({ detail: 'operation' })
    await traced(recorded, async (api) => {
      const body = '{"name":"Rex","categoryId":7}'
      const status = await new Promise<number | undefined>((resolve, reject) => {
        const req = request({
          port: api.port,
          host: '127.0.0.1',
          method: 'POST',
          path: '/v1/pets',
          headers: { ...auth, 'Content-Type': 'application/json', 'Content-Length': body.length },
        })
        req.once('response', (res) => (res.resume(), resolve(res.statusCode))).once('error', reject)
        req.flushHeaders()
        setTimeout(() => req.end(body), 100)
      })
      expect(status).to.equal(201)
    })
    const spans = recorded.spans()
    expect(parentIdOf(named(spans, 'insertPet'))).to.equal(
      named(spans, 'createPet').spanContext().spanId,
    )
  })

  it("a create with an Idempotency-Key: its store calls, made after a wait, are in the operation's span", async () => {
    const recorded = recordedSpans({ detail: 'operation' })
    await traced(recorded, async (api) => {
      const reply = await api.request({
        method: 'POST',
        path: '/v1/pets',
        headers: { ...auth, 'Content-Type': 'application/json', 'Idempotency-Key': 'k-1' },
        body: '{"name":"Rex","categoryId":7}',
      })
      expect(reply.status).to.equal(201)
    })
    expect(recorded.spans().map((s) => s.name)).to.have.members(['createPet', 'POST /v1/pets'])
  })

  it("continues a caller's traceparent, and leaves the probes untraced", async () => {
    const recorded = recordedSpans()
    await traced(recorded, async (api) => {
      await api.request({
        path: '/readyz',
        headers: { traceparent: `00-${'1'.repeat(32)}-${CALLER_SPAN}-01` },
      })
      await api.request({
        path: '/v1/pets/1',
        headers: {
          ...auth,
          traceparent: `00-${CALLER_TRACE}-${CALLER_SPAN}-01`,
          'User-Agent': 'probe/1',
        },
      })
    })
    const server = named(recorded.spans(), 'GET /v1/pets/:petId')
    expect(server.spanContext().traceId).to.equal(CALLER_TRACE)
    expect(parentIdOf(server)).to.equal(CALLER_SPAN)
    expect(server.attributes).to.include({
      'user_agent.original': 'probe/1',
      'http.response.status_code': 404,
    })
    expect(recorded.spans().map((s) => s.spanContext().traceId)).to.not.include('1'.repeat(32))
  })

  it('continues the trace of a caller in the headers of each propagator OTEL_PROPAGATORS names, and only then', async () => {
    const caller = trace.setSpanContext(ROOT_CONTEXT, {
      traceId: CALLER_TRACE,
      spanId: CALLER_SPAN,
      traceFlags: TraceFlags.SAMPLED,
    })
    try {
      for (const names of [
        'tracecontext,baggage',
        'tracecontext',
        'b3',
        'b3multi',
        'jaeger',
        'baggage,b3multi',
      ]) {
        const propagator = await propagatorOf({ OTEL_PROPAGATORS: names })
        propagation.disable()
        propagation.setGlobalPropagator(propagator as NonNullable<typeof propagator>)
        const headers: Record<string, string> = {}
        propagator?.inject(caller, headers, defaultTextMapSetter)
        // The tracer reads the headers the propagator names when it is made, as start.ts makes it.
        const recorded = recordedSpans()
        await traced(recorded, async (api) => {
          await api.request({ path: '/v1/pets/1', headers: { ...auth, ...headers } })
          await api.request({ path: '/v1/pets?limit=1', headers: auth })
        })
        const continued = named(recorded.spans(), 'GET /v1/pets/:petId')
        expect(continued.spanContext().traceId, names).to.equal(CALLER_TRACE)
        expect(parentIdOf(continued), names).to.equal(CALLER_SPAN)
        const started = named(recorded.spans(), 'GET /v1/pets')
        expect(started.spanContext().traceId, names).to.not.equal(CALLER_TRACE)
        expect(parentIdOf(started), names).to.equal(undefined)
      }
    } finally {
      propagation.disable()
      propagation.setGlobalPropagator(new W3CTraceContextPropagator())
    }
  })

  it('client.address is the address the service uses: Forwarded counts only from a trusted proxy', async () => {
    const forwarded = { ...auth, Forwarded: 'for=5.5.5.5' }
    const clientOf = async (env: Record<string, string>) => {
      const recorded = recordedSpans()
      const lines = await traced(
        recorded,
        (api) => api.request({ path: '/v1/pets', headers: forwarded }),
        { env },
      )
      return [
        named(recorded.spans(), 'GET /v1/pets').attributes['client.address'],
        lines[0]?.client,
      ]
    }
    expect(await clientOf({})).to.deep.equal(['127.0.0.1', '127.0.0.1'])
    expect(
      await clientOf({ TRUST_PROXY: '127.0.0.1', TRUST_PROXY_HEADER: 'Forwarded' }),
    ).to.deep.equal(['5.5.5.5', '5.5.5.5'])
  })

  it('a method HTTP does not define is _OTHER, in a span named HTTP, as the conventions ask', async () => {
    const recorded = recordedSpans()
    await traced(recorded, async (api) => {
      await api.request({ method: 'PROPFIND', path: '/v1/pets', headers: auth })
      await api.request({ method: 'PATCH', path: '/v1/pets', headers: auth })
    })
    expect(named(recorded.spans(), 'HTTP').attributes).to.include({
      'http.request.method': '_OTHER',
      'http.request.method_original': 'PROPFIND',
    })
    const patch = named(recorded.spans(), 'PATCH').attributes
    expect(patch).to.include({ 'http.request.method': 'PATCH' })
    expect(patch).to.not.have.property('http.request.method_original')
  })

  it('a 5xx says so: error.type on the server span, the store span failed with its cause', async () => {
    const storage = inMemoryStorage()
    const recorded = recordedSpans({ detail: 'operation' })
    await traced(recorded, (api) => api.get('/pets/1'), {
      storage: {
        ...storage,
        store: { ...storage.store, findPet: () => TE.left(storeUnavailable('down')) },
      },
    })
    const spans = recorded.spans()
    const server = named(spans, 'GET /v1/pets/:petId')
    expect(server.attributes).to.include({ 'error.type': '503', 'http.response.status_code': 503 })
    expect(server.status.code).to.equal(SpanStatusCode.ERROR)
    expect(named(spans, 'findPet').attributes).to.include({ 'error.type': 'StoreUnavailable' })
  })

  it('an unsampled request makes no span, and its log line still names its trace', async () => {
    const recorded = recordedSpans({ sampled: false })
    const lines = await traced(recorded, (api) => api.get('/pets'))
    expect(recorded.spans()).to.deep.equal([])
    expect(lines[0]?.trace_id).to.match(/^[0-9a-f]{32}$/)
    expect(lines[0]?.span_id).to.match(/^[0-9a-f]{16}$/)
    expect(lines[0]?.trace_flags).to.equal('00')
    const request = { path: '/v1/pets', method: 'GET', req: { headers: {} } } as AppContext
    expect(recorded.tracing.requestTracer.start(request)?.recording).to.equal(false)
    expect(recordedSpans().tracing.requestTracer.start(request)?.recording).to.not.equal(false)
  })

  it('a trace that is not recording is only named in the log: the app calls none of its functions', async () => {
    const calls: string[] = []
    const logFields = { trace_id: CALLER_TRACE, span_id: CALLER_SPAN, trace_flags: '00' }
    const tracerOf = (recording: boolean | undefined): RequestTracer => ({
      middlewareSpans: true,
      start: () => ({
        logFields,
        ...(recording === undefined ? {} : { recording }),
        step: (name, _kind, run) => (calls.push(`step ${name}`), run()),
        inOperation: (run) => (calls.push('inOperation'), run()),
        end: ({ status }) => void calls.push(`end ${status}`),
      }),
    })
    const run = async (recording: boolean | undefined) => {
      calls.length = 0
      const recorded = recordedSpans()
      const tracing = { ...recorded.tracing, requestTracer: tracerOf(recording) }
      const lines = await traced({ ...recorded, tracing }, async (api) => {
        expect((await api.createPet({ name: 'Rex', categoryId: 7 })).status).to.equal(201)
      })
      expect(lines[0]).to.include(logFields)
      return [...calls]
    }
    expect(await run(false)).to.deep.equal([])
    for (const recording of [true, undefined]) {
      const made = await run(recording)
      expect(made, String(recording)).to.include.members([
        'step createPet',
        'inOperation',
        'end 201',
      ])
      expect(made.at(-1), String(recording)).to.equal('end 201')
    }
  })

  it('makes no middleware span but with TRACE_DETAIL=middleware; then each is nested in the one before', async () => {
    for (const detail of ['request', 'operation'] as const) {
      const plain = recordedSpans({ detail })
      await traced(plain, (api) => api.get('/pets'))
      expect(plain.spans().filter((s) => s.name.startsWith('middleware - '))).to.deep.equal([])
    }

    const recorded = recordedSpans({ detail: 'middleware' })
    await traced(recorded, (api) => api.get('/pets'))
    const spans = recorded.spans()
    const chain = ['tagLogAndCatch', 'answerProbes', 'serveDocsPage', 'guardApi', 'routeRequest']
    let parent = named(spans, 'GET /v1/pets')
    for (const name of chain) {
      const span = named(spans, `middleware - ${name}`)
      expect(parentIdOf(span), name).to.equal(parent.spanContext().spanId)
      expect(span.attributes).to.include({ 'koa.type': 'middleware', 'koa.name': name })
      parent = span
    }
    expect(parentIdOf(named(spans, 'listPets'))).to.equal(parent.spanContext().spanId)
    expect(parentIdOf(named(spans, 'listPetPage'))).to.equal(
      named(spans, 'listPets').spanContext().spanId,
    )
  })
})
