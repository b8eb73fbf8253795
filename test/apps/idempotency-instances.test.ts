import { expect } from 'chai'
import { auth } from '../support/app.js'
import { freshDatabaseName, requireMongo, uriWithDatabase } from '../support/mongo.js'
import { startService, type ServiceProcess } from '../support/service-process.js'

const body = '{"name":"Rex","categoryId":9007199254740993,"status":"available"}'
const create = (service: ServiceProcess, key: string | undefined, text = body) =>
  service.request({
    method: 'POST',
    path: '/v1/pets',
    headers: {
      ...auth,
      'Content-Type': 'application/json',
      ...(key === undefined ? {} : { 'Idempotency-Key': key }),
    },
    body: text,
  })

/**
 * Three service processes started at the same moment on one fresh database: each builds the
 * indexes at start, and none may fail on a sibling's build (FerretDB v1 drops connections when
 * they race). Then the keys are shared: a retry through another instance replays.
 */
describe('Idempotency-Key across three service processes started at once', function () {
  this.timeout(120_000)
  const running: ServiceProcess[] = []
  afterEach(async () => {
    await Promise.all(running.splice(0).map((s) => s.stop()))
  })

  it('all three start; a key used on one replays on the others, with one pet stored', async function () {
    const mongodbUri = uriWithDatabase(requireMongo(this), freshDatabaseName())
    const env = { MONGODB_URI: mongodbUri, STORE_TIMEOUT_MS: '3000' }
    const started = await Promise.allSettled([1, 2, 3].map(() => startService(env)))
    for (const s of started) if (s.status === 'fulfilled') running.push(s.value)
    expect(started.filter((s) => s.status === 'rejected').map(String)).to.deep.equal([])
    const [a, b, c] = running as [ServiceProcess, ServiceProcess, ServiceProcess]

    const first = await create(a, 'order-7')
    expect(first.status).to.equal(201)
    const replays = await Promise.all([create(b, 'order-7'), create(c, '"order-7"')])
    for (const replay of replays) {
      expect(replay.status).to.equal(201)
      expect(replay.text).to.equal(first.text)
      expect(replay.headers['idempotent-replayed']).to.equal('true')
    }
    const reused = await create(c, 'order-7', body.replace('Rex', 'Max'))
    expect(reused.status).to.equal(422)
    expect(reused.json).to.deep.include({ code: 'idempotency_key_reused', status: 422n })

    // Without a key, every create stores its own pet, on any instance.
    expect((await create(b, undefined)).status).to.equal(201)
    expect((await create(c, undefined)).status).to.equal(201)
    const list = await a.request({ path: '/v1/pets?limit=100', headers: auth })
    expect((list.json as unknown[]).length).to.equal(3)
  })
})
