import { createHash } from 'node:crypto'
import { expect } from 'chai'
import type { Reply } from '../support/http.js'
import { keysCli } from '../support/keys-cli.js'
import { freshDatabaseName, requireMongo, uriWithDatabase } from '../support/mongo.js'
import { startService, type ServiceProcess } from '../support/service-process.js'

/** Polls until every service answers `status` (or 5 s pass); returns how long that took. */
const within5s = async (
  services: ReadonlyArray<ServiceProcess>,
  key: string,
  status: number,
): Promise<number> => {
  const started = Date.now()
  const pending = new Set(services)
  while (pending.size > 0 && Date.now() - started < 5000) {
    for (const service of [...pending]) {
      const reply: Reply = await service.request({
        path: '/v1/pets',
        headers: { Authorization: `Bearer ${key}` },
      })
      if (reply.status === status) pending.delete(service)
    }
    if (pending.size > 0) await new Promise((resolve) => setTimeout(resolve, 100))
  }
  expect(pending.size, `instances still not answering ${status}`).to.equal(0)
  return Date.now() - started
}

describe('API keys on MongoDB, two service processes', function () {
  this.timeout(120_000)
  const running: ServiceProcess[] = []
  afterEach(async () => {
    await Promise.all(running.splice(0).map((s) => s.stop()))
  })

  it('a key minted by the CLI works on both within 5 s; revoked, it is refused by both within 5 s', async function () {
    const uri = uriWithDatabase(requireMongo(this), freshDatabaseName())
    const env = { MONGODB_URI: uri, STORE_TIMEOUT_MS: '2000' }
    const [a, b] = await Promise.all([startService(env), startService(env)])
    running.push(a as ServiceProcess, b as ServiceProcess)
    const both = [a, b] as ServiceProcess[]
    // Warm both caches first, so that the test sees propagation, not a first load.
    for (const s of both) expect((await s.request({ path: '/v1/pets' })).status).to.equal(401)

    const created = await keysCli(['create', '--label', 'ci', '--scope', 'pets:read'], env)
    expect(created.code, created.stderr).to.equal(0)
    const key = created.stdout.trim()
    const tookToAccept = await within5s(both, key, 200)
    const write = await (a as ServiceProcess).request({
      method: 'POST',
      path: '/v1/pets',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: '{"name":"Rex","categoryId":1}',
    })
    expect(write.status).to.equal(403)

    const id = /created (key-[0-9a-f]{12})/.exec(created.stderr)?.[1] as string
    const listed = await keysCli(['list'], env)
    expect(listed.stdout).to.include(id)
    const revoked = await keysCli(['revoke', id], env)
    expect(revoked.code, revoked.stderr).to.equal(0)
    const tookToRefuse = await within5s(both, key, 401)
    const refused = await (b as ServiceProcess).request({
      path: '/v1/pets',
      headers: { Authorization: `Bearer ${key}` },
    })
    expect(refused.json).to.deep.include({ code: 'invalid_token' })
    console.log(`      (accepted after ${tookToAccept} ms, refused after ${tookToRefuse} ms)`)

    const digest = createHash('sha256').update(key).digest('hex')
    const logs = both.flatMap((s) => s.output).join('\n') + listed.stdout + listed.stderr
    expect(logs).to.not.include(key)
    expect(logs).to.not.include(digest)
  })
})
