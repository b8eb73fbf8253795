import { expect } from 'chai'
import * as TE from 'fp-ts/lib/TaskEither.js'
import type { ClientError, RetryNotice } from '../../../adapters/http-client/index.js'
import { inMemoryStorage, type Storage } from '../../../apps/server/storage.js'
import { startTestApi, type TestApi } from '../../support/app.js'
import { countingClient, rejectionOf } from './support.js'

/** The task, answered `ms` later. */
const later =
  <A>(ms: number, task: () => Promise<A>) =>
  () =>
    new Promise<A>((done) => setTimeout(() => void task().then(done), ms))

/**
 * The in-memory store behind the real service, made to fail: its first `failures` inserts and
 * listings answer StoreUnavailable (the service's 503), or every listing and insert takes
 * `slowMs`.
 */
const faultyStorage = (failures: number, slowMs = 0): Storage => {
  const storage = inMemoryStorage()
  let left = failures
  const unavailable = TE.left({ _tag: 'StoreUnavailable', detail: 'test fault' } as const)
  const { store } = storage
  return {
    ...storage,
    store: {
      ...store,
      insertPet: (pet, op) =>
        slowMs > 0
          ? later(slowMs, store.insertPet(pet, op))
          : left-- > 0
            ? unavailable
            : store.insertPet(pet, op),
      listPetPage: (request) =>
        slowMs > 0
          ? later(slowMs, store.listPetPage(request))
          : left-- > 0
            ? unavailable
            : store.listPetPage(request),
    },
  }
}

describe('the client retries only what is transient, within its budget', function () {
  this.timeout(20_000)
  let api: TestApi | undefined
  afterEach(async () => {
    await api?.close()
    api = undefined
  })
  const start = async (storage: Storage) => {
    api = await startTestApi({ storage, env: { RETRY_AFTER_SECONDS: '1' } })
    return api.port
  }

  it('waits out a 503 with Retry-After: 1 (about one second), then creates the pet once', async () => {
    const port = await start(faultyStorage(1))
    const retries: RetryNotice[] = []
    const sentAt: number[] = []
    const { client } = countingClient(port, {
      onRetry: (n) => retries.push(n),
      fetch: (input, init) => (sentAt.push(Date.now()), globalThis.fetch(input, init)),
    })
    const pet = await client.createPet({ name: 'Rex', categoryId: 1n })
    expect(sentAt).to.have.length(2)
    expect((sentAt[1] as number) - (sentAt[0] as number)).to.be.within(1000, 1500)
    expect(
      retries.map((r) => [r.attempt, r.failure.code, 'status' in r.failure && r.failure.status]),
    ).to.deep.equal([[1, 'unavailable', 503]])
    expect(retries[0]?.delayMs).to.be.within(1000, 1100)
    expect((await client.listPets()).pets).to.deep.equal([pet])
  })

  it('retries a read refused 429 by the rate limit, after its Retry-After', async () => {
    api = await startTestApi({ env: { RATE_LIMIT_RPS: '1', RATE_LIMIT_BURST: '1' } })
    const retries: RetryNotice[] = []
    const { client, sent } = countingClient(api.port, { onRetry: (n) => retries.push(n) })
    await client.listPets()
    expect((await client.listPets()).pets).to.deep.equal([])
    expect(sent).to.have.length(3)
    expect(retries.map((r) => r.failure.code)).to.deep.equal(['rate_limited'])
    expect(retries[0]?.delayMs).to.be.at.least(1000)
  })

  it('sends the same Idempotency-Key and body on every attempt', async () => {
    const port = await start(faultyStorage(2))
    const seen: Array<[string | null, unknown]> = []
    const { client } = countingClient(port, {
      fetch: (input, init) => {
        seen.push([new Headers(init?.headers).get('idempotency-key'), init?.body])
        return globalThis.fetch(input, init)
      },
    })
    await client.createPet({ name: 'Rex', categoryId: 1n })
    expect(seen).to.have.length(3)
    expect(new Set(seen.map(([key]) => key)).size).to.equal(1)
    expect(seen[0]?.[0]).to.match(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    )
    expect(new Set(seen.map(([, body]) => body)).size).to.equal(1)
  })

  it('retries 409 idempotency_key_in_use until the first create answers: one pet for both', async () => {
    const port = await start(faultyStorage(0, 1500))
    const retries: RetryNotice[] = []
    const { client } = countingClient(port, { onRetry: (n) => retries.push(n) })
    const pet = { name: 'Rex', categoryId: 3n } as const
    const first = client.createPet(pet, { idempotencyKey: 'order-9' })
    await new Promise((done) => setTimeout(done, 300))
    const second = await client.createPet(pet, { idempotencyKey: 'order-9' })
    expect(second).to.deep.equal(await first)
    expect(retries.map((r) => r.failure.code)).to.include('idempotency_key_in_use')
    expect((await client.listPets()).pets).to.deep.equal([second])
  })

  it('ends with budget_exhausted after the budgeted attempts, naming the last failure', async () => {
    const port = await start(faultyStorage(100))
    const { client, sent } = countingClient(port)
    const error = (await rejectionOf(
      client.listPets({}, { budget: { attempts: 2, totalMs: 10_000 } }),
    )) as ClientError
    expect(error.code).to.equal('budget_exhausted')
    if (error.code !== 'budget_exhausted') return
    expect(error.attempts).to.equal(2)
    expect(error.last).to.deep.include({ code: 'unavailable', status: 503, retryAfterSeconds: 1 })
    expect(sent).to.have.length(2)
  })

  it('does not start a wait the time budget cannot hold', async () => {
    const port = await start(faultyStorage(100))
    const { client, sent } = countingClient(port)
    const began = Date.now()
    const error = (await rejectionOf(
      client.createPet(
        { name: 'Rex', categoryId: 1n },
        { budget: { attempts: 10, totalMs: 1500 } },
      ),
    )) as ClientError
    expect(error.code).to.equal('budget_exhausted')
    expect(sent).to.have.length(2) // at 0 s and after the 1 s wait; a second wait would pass 1.5 s
    expect(Date.now() - began).to.be.below(1500)
  })

  it('times out an attempt that gets no answer, retries it, and reports the timeout', async () => {
    const port = await start(faultyStorage(0, 1000))
    const { client, sent } = countingClient(port)
    const error = (await rejectionOf(
      client.listPets({}, { timeoutMs: 200, budget: { attempts: 2 } }),
    )) as ClientError
    expect(error.code).to.equal('budget_exhausted')
    if (error.code === 'budget_exhausted') expect(error.last.code).to.equal('timeout')
    expect(sent).to.have.length(2)
  })

  it('stops waiting as soon as the caller aborts', async () => {
    const port = await start(faultyStorage(100))
    const { client } = countingClient(port)
    const began = Date.now()
    const error = (await rejectionOf(
      client.createPet({ name: 'Rex', categoryId: 1n }, { signal: AbortSignal.timeout(300) }),
    )) as ClientError
    expect(error.code).to.equal('aborted')
    expect(Date.now() - began).to.be.below(900)
  })
})
