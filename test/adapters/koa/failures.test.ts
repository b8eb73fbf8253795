import { expect } from 'chai'
import * as TE from 'fp-ts/lib/TaskEither.js'
import { createInMemoryPetStore } from '../../../adapters/in-memory/index.js'
import { storeUnavailable, type PetStore } from '../../../core/index.js'
import { startTestApi } from '../../support/app.js'
import { downStore } from '../../support/down-store.js'
import { expectError } from '../../support/expect-error.js'

const captureLogger = () => {
  const lines: Array<{ level: string; fields: object; message: string }> = []
  const log = (level: string) => (fields: object, message: string) =>
    void lines.push({ level, fields, message })
  return { lines, logger: { info: log('info'), warn: log('warn'), error: log('error') } }
}

describe('HTTP: store failures and unexpected errors', () => {
  it('answers 503 with Retry-After when the store is unavailable, and /readyz says so', async () => {
    const down = downStore()
    const { lines, logger } = captureLogger()
    const api = await startTestApi({
      storage: {
        store: down,
        checkReadiness: () => TE.left(storeUnavailable('down')),
        close: async () => {},
      },
      env: { RETRY_AFTER_SECONDS: '7' },
      logger,
    })
    try {
      for (const reply of [
        await api.get('/pets'),
        await api.get('/pets/1'),
        await api.createPet({ name: 'x', categoryId: 1n }),
      ]) {
        expectError(reply, 503, 'unavailable')
        expect(reply.headers['retry-after']).to.equal('7')
        expect(reply.text).to.not.include('connection refused')
      }
      expectError(await api.request({ path: '/readyz' }), 503, 'unavailable')
      expect((await api.request({ path: '/healthz' })).status).to.equal(200)
      expect(lines.filter((l) => l.level === 'warn')).to.have.length(4) // three requests and /readyz
    } finally {
      await api.close()
    }
  })

  it('answers 500 internal without detail when an adapter throws, and logs the detail', async () => {
    const broken: PetStore = {
      ...createInMemoryPetStore(),
      listPetPage: () => () => Promise.reject(new Error('secret stack detail')),
    }
    const { lines, logger } = captureLogger()
    const api = await startTestApi({
      storage: { store: broken, checkReadiness: () => TE.right(undefined), close: async () => {} },
      logger,
    })
    try {
      const reply = await api.get('/pets')
      expectError(reply, 500, 'internal')
      expect(reply.text).to.not.include('secret')
      expect(
        JSON.stringify(
          lines
            .filter((l) => l.level === 'error')
            .map((l) => String((l.fields as { err: Error }).err)),
        ),
      ).to.include('secret stack detail')
      expect((await api.get('/pets/1')).status).to.equal(404)
    } finally {
      await api.close()
    }
  })

  it('serves /healthz and /readyz without auth, outside the base path', async () => {
    const api = await startTestApi()
    try {
      const health = await api.request({ path: '/healthz' })
      expect(health.status).to.equal(200)
      expect(health.json).to.deep.equal({ status: 'ok' })
      expect((await api.request({ path: '/readyz' })).json).to.deep.equal({ status: 'ready' })
      expectError(await api.request({ method: 'POST', path: '/healthz' }), 405)
    } finally {
      await api.close()
    }
  })

  it('answers concurrent /readyz requests from one readiness check in flight, then checks again', async () => {
    let checks = 0
    let waiting: Array<() => void> = []
    const release = () => {
      for (const resolve of waiting) resolve()
      waiting = []
    }
    const api = await startTestApi({
      storage: {
        store: createInMemoryPetStore(),
        checkReadiness: () => () => {
          checks++
          return new Promise((resolve) => {
            waiting.push(() => resolve({ _tag: 'Right', right: undefined }))
          })
        },
        close: async () => {},
      },
    })
    try {
      const probes = Array.from({ length: 20 }, () => api.request({ path: '/readyz' }))
      while (checks === 0) await new Promise((resolve) => setTimeout(resolve, 5))
      // Every probe has arrived once the server holds 20 requests; give them a moment to.
      await new Promise((resolve) => setTimeout(resolve, 100))
      release()
      expect((await Promise.all(probes)).map((reply) => reply.status)).to.deep.equal(
        Array(20).fill(200),
      )
      expect(checks).to.equal(1)
      const next = api.request({ path: '/readyz' })
      while (checks === 1) await new Promise((resolve) => setTimeout(resolve, 5))
      release()
      expect((await next).status).to.equal(200)
      expect(checks).to.equal(2)
    } finally {
      await api.close()
    }
  })
})
