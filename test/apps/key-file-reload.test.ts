import { readFileSync, renameSync, writeFileSync } from 'node:fs'
import { expect } from 'chai'
import { mintKey } from '../../apps/keys/mint.js'
import { TEST_KEY } from '../support/app.js'
import { expectError } from '../support/expect-error.js'
import type { Reply } from '../support/http.js'
import { tempKeyFile } from '../support/minted-keys.js'
import { startService, type ServiceProcess } from '../support/service-process.js'

/** The bound of docs/api-keys.md: a change of the key file applies within 4 s, plus one read. */
const BOUND_MS = 5000

const ask = (service: ServiceProcess, key: string) =>
  service.request({ path: '/v1/pets', headers: { Authorization: `Bearer ${key}` } })

/**
 * Asks with `key` every 100 ms until the answer has `status`, for at most the bound; returns
 * that answer and how long it took from the call.
 */
const until = async (service: ServiceProcess, key: string, status: number) => {
  const started = Date.now()
  let reply: Reply
  do {
    reply = await ask(service, key)
    if (reply.status === status) break
    await new Promise((resolve) => setTimeout(resolve, 100))
  } while (Date.now() - started < BOUND_MS + 1000)
  return { reply, tookMs: Date.now() - started }
}

describe('API_KEYS_FILE on the in-memory service (a service process)', function () {
  this.timeout(40_000)
  const file = tempKeyFile()
  let service: ServiceProcess
  before(async () => {
    // No file yet: it holds no keys. No drain, so that the stop in `after` is quick.
    service = await startService({ API_KEYS_FILE: file.path, SHUTDOWN_DRAIN_MS: '0' })
  })
  after(async () => {
    await service.stop()
    file.remove()
  })

  it('warns at start that the file does not exist, which holds no keys until it does', () => {
    const warning = service.output.find((line) => line.includes('API_KEYS_FILE does not exist'))
    expect(JSON.parse(warning ?? '{}')).to.include({ level: 40, path: file.path })
  })

  it('accepts a key added to the file within 5 s, and refuses it within 5 s once revoked', async () => {
    const minted = mintKey('reload', ['pets:read'], null, Date.now())
    // Not in the file yet (and the cache is read): unknown.
    expectError(await ask(service, minted.key), 401, 'unauthorized')

    const added = await file.registry.addKey(minted.stored)()
    expect(added._tag).to.equal('Right')
    const accepted = await until(service, minted.key, 200)
    expect(accepted.reply.status).to.equal(200)
    expect(accepted.tookMs).to.be.below(BOUND_MS)

    const revoked = await file.registry.revokeKey(minted.stored.id, Date.now())()
    expect(revoked).to.deep.equal({ _tag: 'Right', right: true })
    const refused = await until(service, minted.key, 401)
    expectError(refused.reply, 401, 'invalid_token')
    expect(refused.tookMs).to.be.below(BOUND_MS)
  })

  it('fails closed on a file it cannot parse: 503 for minted keys within 5 s, API_KEYS still served, a warning logged', async () => {
    const { key } = await file.mint(['pets:read'])
    expect((await until(service, key, 200)).reply.status).to.equal(200)
    const good = readFileSync(file.path, 'utf8')
    const warnings = () => service.output.filter((l) => l.includes('cannot read the API keys'))
    expect(warnings()).to.deep.equal([])

    writeFileSync(file.path, `${good}not a key record\n`)
    const failed = await until(service, key, 503)
    expectError(failed.reply, 503, 'unavailable')
    expect(failed.reply.headers['retry-after']).to.equal('2')
    expect(failed.tookMs).to.be.below(BOUND_MS)
    // The bootstrap keys do not come from the file: they keep working.
    expect((await ask(service, TEST_KEY)).status).to.equal(200)
    // Log lines go out in batches within a quarter of a second.
    const logged = Date.now() + 2000
    while (warnings().length === 0 && Date.now() < logged)
      await new Promise((resolve) => setTimeout(resolve, 50))
    const warning = JSON.parse(warnings()[0] ?? '{}') as Record<string, unknown>
    expect(warning).to.include({ level: 40, msg: 'cannot read the API keys' })
    const broken = good.trimEnd().split('\n').length + 1
    expect(String(warning.err)).to.match(new RegExp(`line ${broken} is not JSON$`))
    expect(warnings().join('\n')).to.not.include(key)

    // Put right the way the CLI writes (a whole file renamed over the old one): served again.
    writeFileSync(`${file.path}.tmp`, good)
    renameSync(`${file.path}.tmp`, file.path)
    const recovered = await until(service, key, 200)
    expect(recovered.reply.status).to.equal(200)
    expect(recovered.tookMs).to.be.below(BOUND_MS)
  })
})
