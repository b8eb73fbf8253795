import { request as httpRequest } from 'node:http'
import type { AddressInfo } from 'node:net'
import { expect } from 'chai'
import * as TE from 'fp-ts/lib/TaskEither.js'
import { createInMemoryPetStore } from '../../adapters/in-memory/index.js'
import type { RequestRecord } from '../../adapters/koa/index.js'
import { createPrometheusMetrics } from '../../adapters/prometheus/index.js'
import { createMetricsServer } from '../../apps/server/metrics-server.js'
import {
  shuttingDown,
  storeUnavailable,
  type ApiKeyRegistry,
  type PetStore,
} from '../../core/index.js'
import { auth, startTestApi } from '../support/app.js'
import { send } from '../support/http.js'
import { sendRaw } from '../support/raw.js'
import { startService } from '../support/service-process.js'
import { sample } from '../support/exposition.js'
import { downStore } from '../support/down-store.js'
import { storageFor } from '../support/backends.js'

const storage = (store: PetStore) => ({
  store,
  checkReadiness: () => TE.right(undefined),
  close: async () => {},
})

describe('metrics (Prometheus)', () => {
  it('counts requests by route template, method and status, with latency and store calls', async () => {
    const metrics = createPrometheusMetrics()
    const api = await startTestApi({ metrics })
    try {
      await api.createPet({ name: 'Rex', categoryId: 1n })
      for (const path of ['/pets', '/pets', '/pets/1', '/pets/2']) await api.get(path)
      await api.request({ path: '/v1/pets' })
      const text = await metrics.render()
      const requests = 'animal_store_http_requests_total'
      expect(sample(text, `${requests}{route="/v1/pets",method="GET",status="200"}`)).to.equal(2)
      expect(sample(text, `${requests}{route="/v1/pets",method="POST",status="201"}`)).to.equal(1)
      expect(
        sample(text, `${requests}{route="/v1/pets/:petId",method="GET",status="200"}`),
      ).to.equal(1)
      expect(
        sample(text, `${requests}{route="/v1/pets/:petId",method="GET",status="404"}`),
      ).to.equal(1)
      // Refused before routing: no template, never the raw path.
      expect(sample(text, `${requests}{route="none",method="GET",status="401"}`)).to.equal(1)
      const latency = 'animal_store_http_request_duration_seconds'
      expect(sample(text, `${latency}_count{route="/v1/pets",method="GET"}`)).to.equal(2)
      expect(sample(text, `${latency}_bucket{route="/v1/pets",method="GET",le="+Inf"}`)).to.equal(2)
      const store = 'animal_store_store_call_duration_seconds_count'
      expect(sample(text, `${store}{operation="findPet"}`)).to.equal(2)
      expect(sample(text, `${store}{operation="listPetPage"}`)).to.equal(2)
      expect(sample(text, `${store}{operation="insertPet"}`)).to.equal(1)
      expect(sample(text, 'animal_store_store_call_failures_total{operation="findPet"}')).to.equal(
        0,
      )
      expect(text).to.not.include(auth.Authorization.slice(7))
    } finally {
      await api.close()
    }
  })

  it('has process metrics and the event-loop lag', async () => {
    const text = await createPrometheusMetrics().render()
    for (const name of [
      'process_cpu_user_seconds_total',
      'process_resident_memory_bytes',
      'nodejs_eventloop_lag_seconds',
      'nodejs_eventloop_lag_p99_seconds',
      'nodejs_heap_size_used_bytes',
    ])
      expect(text, name).to.match(new RegExp(`^${name} `, 'm'))
  })

  it('counts store failures and 503 answers', async () => {
    const metrics = createPrometheusMetrics()
    const api = await startTestApi({
      metrics,
      storage: storage(downStore()),
    })
    try {
      expect((await api.get('/pets')).status).to.equal(503)
      expect((await api.get('/pets/3')).status).to.equal(503)
      const text = await metrics.render()
      expect(sample(text, 'animal_store_http_unavailable_total')).to.equal(2)
      expect(sample(text, 'animal_store_store_call_failures_total{operation="findPet"}')).to.equal(
        1,
      )
      expect(
        sample(text, 'animal_store_store_call_failures_total{operation="listPetPage"}'),
      ).to.equal(1)
      expect(sample(text, 'animal_store_http_rate_limited_total')).to.equal(0)
    } finally {
      await api.close()
    }
  })

  it("counts a draining instance's /readyz 503 as a request, not as the store unavailable", async () => {
    const metrics = createPrometheusMetrics()
    const api = await startTestApi({
      metrics,
      storage: {
        ...storage(createInMemoryPetStore()),
        checkReadiness: () => TE.left(shuttingDown),
      },
    })
    try {
      const reply = await api.request({ path: '/readyz' })
      expect(reply.status).to.equal(503)
      expect(reply.json).to.include({ code: 'unavailable' })
      const text = await metrics.render()
      expect(sample(text, 'animal_store_http_unavailable_total')).to.equal(0)
      expect(
        sample(text, 'animal_store_http_requests_total{route="none",method="GET",status="503"}'),
      ).to.equal(1)
    } finally {
      await api.close()
    }
  })

  it('counts /readyz 503 for a store that is down as the store unavailable', async () => {
    const metrics = createPrometheusMetrics()
    const api = await startTestApi({
      metrics,
      storage: {
        ...storage(downStore()),
        checkReadiness: () => TE.left(storeUnavailable('connection refused')),
      },
    })
    try {
      expect((await api.request({ path: '/readyz' })).status).to.equal(503)
      expect(sample(await metrics.render(), 'animal_store_http_unavailable_total')).to.equal(1)
    } finally {
      await api.close()
    }
  })

  it("counts a 503 for the API keys' source as the store unavailable", async () => {
    const metrics = createPrometheusMetrics()
    const down = () => TE.left(storeUnavailable('connection refused'))
    const keyRegistry: ApiKeyRegistry = {
      listKeys: down,
      readKeysIfChanged: down,
      addKey: down,
      revokeKey: down,
      pruneKeys: down,
    }
    const api = await startTestApi({
      metrics,
      storage: { ...storage(createInMemoryPetStore()), keyRegistry },
    })
    try {
      // A key not in API_KEYS while the minted keys cannot be read.
      const reply = await api.request({
        path: '/v1/pets',
        headers: { Authorization: 'Bearer not-a-bootstrap-key-0123456789' },
      })
      expect(reply.status).to.equal(503)
      expect(reply.json).to.include({ code: 'unavailable' })
      expect((await api.get('/pets')).status).to.equal(200) // API_KEYS' own key still works
      const text = await metrics.render()
      expect(sample(text, 'animal_store_http_unavailable_total')).to.equal(1)
      expect(
        sample(text, 'animal_store_http_requests_total{route="none",method="GET",status="503"}'),
      ).to.equal(1)
    } finally {
      await api.close()
    }
  })

  it('counts the stored pets it cannot read, left out or refused, not as store failures', async () => {
    const metrics = createPrometheusMetrics()
    const api = await startTestApi({
      metrics,
      storage: await storageFor('in-memory', {
        records: [
          { id: 1n, name: 'Rex', categoryId: 7n },
          { id: 2n, name: 'Broken', categoryId: 'seven' },
        ],
        onUnreadablePet: metrics.countUnreadablePet,
      }),
    })
    try {
      const counted = async () =>
        sample(await metrics.render(), 'animal_store_unreadable_pets_total')
      // Left out of the page (the in-memory store tells it once, as it reads its records).
      const page = await api.get('/pets')
      expect((page.json as Array<{ id: bigint }>).map((pet) => pet.id)).to.deep.equal([1n])
      const leftOut = (await counted()) ?? 0
      expect(leftOut).to.be.at.least(1)
      // Refused to a find: counted each time.
      expect((await api.get('/pets/2')).status).to.equal(500)
      expect(await counted()).to.equal(leftOut + 1)
      const text = await metrics.render()
      for (const operation of ['findPet', 'listPetPage'])
        expect(
          sample(text, `animal_store_store_call_failures_total{operation="${operation}"}`),
          operation,
        ).to.equal(0)
      expect(sample(text, 'animal_store_http_unavailable_total')).to.equal(0)
    } finally {
      await api.close()
    }
  })

  it('counts 429 answers', async () => {
    const metrics = createPrometheusMetrics()
    metrics.observeRequest('none', 'GET', 429, 0.001, false, false)
    metrics.observeRequest('none', 'GET', 429, 0.001, false, false)
    const text = await metrics.render()
    expect(sample(text, 'animal_store_http_rate_limited_total')).to.equal(2)
    expect(
      sample(text, 'animal_store_http_requests_total{route="none",method="GET",status="429"}'),
    ).to.equal(2)
  })

  it('counts answered requests as answered, not aborted', async () => {
    const metrics = createPrometheusMetrics()
    const api = await startTestApi({ metrics })
    try {
      expect((await api.createPet({ name: 'Rex', categoryId: 1n })).status).to.equal(201)
      expect((await api.get('/pets/1')).status).to.equal(200)
      expect((await api.get('/pets?limit=5')).status).to.equal(200)
      expect(
        (await api.request({ method: 'HEAD', path: '/v1/pets', headers: auth })).status,
      ).to.equal(200)
      const text = await metrics.render()
      expect(sample(text, 'animal_store_http_aborted_total')).to.equal(0)
      expect(
        sample(
          text,
          'animal_store_http_requests_total{route="/v1/pets/:petId",method="GET",status="200"}',
        ),
      ).to.equal(1)
    } finally {
      await api.close()
    }
  })

  it('counts a request whose client went away before the answer', async () => {
    const metrics = createPrometheusMetrics()
    let release = () => {}
    let reached = () => {}
    const inStore = new Promise<void>((resolve) => (reached = resolve))
    const memory = createInMemoryPetStore()
    const slow: PetStore = {
      ...memory,
      findPet: (id) => () =>
        new Promise((resolve) => {
          release = () => void memory.findPet(id)().then(resolve)
          reached()
        }),
    }
    const api = await startTestApi({ metrics, storage: storage(slow) })
    try {
      const client = httpRequest({
        host: '127.0.0.1',
        port: api.port,
        path: '/v1/pets/1',
        headers: auth,
      })
      client.on('error', () => {}) // the abort below
      client.end()
      await inStore
      client.destroy()
      await new Promise((resolve) => setTimeout(resolve, 50))
      release()
      let aborted: number | undefined
      for (let i = 0; i < 50 && aborted !== 1; i++) {
        await new Promise((resolve) => setTimeout(resolve, 20))
        aborted = sample(await metrics.render(), 'animal_store_http_aborted_total')
      }
      expect(aborted).to.equal(1)
      // Counted with nginx's 499, as the log does: it got no answer, least of all Koa's 404.
      const text = await metrics.render()
      expect(
        sample(
          text,
          'animal_store_http_requests_total{route="/v1/pets/:petId",method="GET",status="499"}',
        ),
      ).to.equal(1)
      expect(text).not.to.match(/status="404"/)
    } finally {
      await api.close()
    }
  })

  it("neither counts nor logs what Node's parser and the wire refuse before the app", async () => {
    const metrics = createPrometheusMetrics()
    const records: RequestRecord[] = []
    const api = await startTestApi({ metrics, requestLine: (r) => records.push(r) })
    try {
      const refused = await Promise.all(
        [
          'GET /v1/pets HTTP/1.1\r\nHost x\r\n\r\n',
          `GET /v1/pets HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
          'GET /v1/pets HTTP/1.1\r\nHost: x\r\nExpect: later\r\n\r\n',
          'POST /v1/pets HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n',
          'CONNECT 127.0.0.1:1 HTTP/1.1\r\nHost: x\r\n\r\n',
        ].map((bytes) => sendRaw(api.port, bytes)),
      )
      expect(refused.map((reply) => reply.status)).to.deep.equal([400, 431, 417, 501, 501])
      expect((await api.get('/pets')).status).to.equal(200) // what the app answers is counted
      const counted = (await metrics.render())
        .split('\n')
        .filter((line) => line.startsWith('animal_store_http_requests_total{'))
      expect(counted).to.deep.equal([
        'animal_store_http_requests_total{route="/v1/pets",method="GET",status="200"} 1',
      ])
      expect(records.map((r) => r.status)).to.deep.equal([200])
    } finally {
      await api.close()
    }
  })

  it('is not served on the API port', async () => {
    const api = await startTestApi({ metrics: createPrometheusMetrics() })
    try {
      for (const path of ['/metrics', '/v1/metrics'])
        expect((await api.request({ path, headers: auth })).status).to.equal(404)
    } finally {
      await api.close()
    }
  })

  it('serves GET /metrics on its own listener, in the Prometheus text format', async () => {
    const metrics = createPrometheusMetrics()
    const server = createMetricsServer(metrics)
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const port = (server.address() as AddressInfo).port
    try {
      const reply = await send(port, { path: '/metrics' })
      expect(reply.status).to.equal(200)
      expect(reply.headers['content-type']).to.match(/^text\/plain; version=0\.0\.4/)
      expect(reply.text).to.include('# TYPE animal_store_http_requests_total counter')
      expect((await send(port, { path: '/' })).status).to.equal(404)
      const post = await send(port, { method: 'POST', path: '/metrics' })
      expect(post.status).to.equal(405)
      expect(post.headers.allow).to.equal('GET, HEAD')
    } finally {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    }
  })

  it('is not even loaded with METRICS_PORT unset: the adapter loads only when metrics are on', async () => {
    // Node's ESM debug log names every module it loads.
    const loadsAdapter = async (env: Record<string, string>) => {
      const service = await startService({ NODE_DEBUG: 'esm', ...env })
      await service.stop()
      return service.output.some((line) => line.includes('dist/adapters/prometheus/'))
    }
    expect(await loadsAdapter({})).to.equal(false)
    expect(await loadsAdapter({ METRICS_PORT: '0' })).to.equal(true)
  })
})
