import { chmodSync, chownSync } from 'node:fs'
import { expect } from 'chai'
import { createMongoApiKeyRegistry } from '../../adapters/mongodb/index.js'
import { mintKey } from '../../apps/keys/mint.js'
import { TEST_KEY } from '../support/app.js'
import { tempKeyFile } from '../support/minted-keys.js'
import {
  closeSharedClient,
  freshDatabaseName,
  requireMongo,
  sharedClient,
  uriWithDatabase,
} from '../support/mongo.js'
import { startService, type ServiceProcess } from '../support/service-process.js'

/** A request with the key, one with a wrong key, then the service stops and flushes its log. */
const exercise = async (service: ServiceProcess, key: string) => {
  const ok = await service.request({
    path: '/v1/pets',
    headers: { Authorization: `Bearer ${key}` },
  })
  expect(ok.status).to.equal(200)
  const wrong = { Authorization: `Bearer ${key.slice(0, -2)}xx` }
  expect((await service.request({ path: '/v1/pets', headers: wrong })).status).to.equal(401)
  expect(await service.stop()).to.equal(0)
}

const expectNoKeyIn = (lines: ReadonlyArray<string>, keys: ReadonlyArray<string>) => {
  for (const key of keys)
    expect(
      lines.filter((line) => line.includes(key)),
      `lines holding ${key}`,
    ).to.deep.equal([])
}

const expectJsonLines = (lines: ReadonlyArray<string>) => {
  expect(lines.length).to.be.above(1)
  for (const line of lines) expect(() => JSON.parse(line) as unknown, line).not.to.throw()
}

describe('secrets never reach a log', function () {
  this.timeout(60_000)

  it('with no key source, the generated key goes to stderr only, and expires in 24 hours', async () => {
    const service = await startService({ API_KEYS: '' })
    const key = / accepts the generated key (\S+)/.exec(service.stderr.join('\n'))?.[1] ?? ''
    expect(key).to.match(/^[A-Za-z0-9_-]{32}$/)
    const until = /until (\S+) or until it stops/.exec(service.stderr.join('\n'))?.[1] ?? ''
    const lifetime = Date.parse(until) - Date.now()
    expect(lifetime).to.be.within(23.9 * 3_600_000, 24 * 3_600_000)
    await exercise(service, key)
    expectJsonLines(service.stdout)
    expectNoKeyIn(service.stdout, [key])
  })

  it('with API_KEYS, no key is generated and none is printed', async () => {
    const service = await startService({ API_KEYS: TEST_KEY })
    await exercise(service, TEST_KEY)
    expectJsonLines(service.stdout)
    expect(service.stderr).to.deep.equal([])
    expectNoKeyIn(service.output, [TEST_KEY])
  })

  it('with API_KEYS_FILE alone, no key is generated and none is printed', async () => {
    const file = tempKeyFile()
    try {
      const { key } = await file.mint(['pets:read'])
      const service = await startService({ API_KEYS: '', API_KEYS_FILE: file.path })
      await exercise(service, key)
      expectJsonLines(service.stdout)
      expect(service.stderr).to.deep.equal([])
      expectNoKeyIn(service.output, [key])
    } finally {
      file.remove()
    }
  })

  it('with MongoDB alone, the service runs on minted keys: none generated, none printed', async () => {
    const uri = requireMongo(this.ctx)
    const database = freshDatabaseName()
    const db = (await sharedClient(uri)).db(database)
    try {
      const { key, stored } = mintKey('test', ['pets:read'], null, Date.now())
      await createMongoApiKeyRegistry(db).addKey(stored)()
      const service = await startService({
        API_KEYS: '',
        MONGODB_URI: uriWithDatabase(uri, database),
      })
      await exercise(service, key)
      expectJsonLines(service.stdout)
      expect(service.stderr).to.deep.equal([])
      expectNoKeyIn(service.output, [key])
    } finally {
      await db.dropDatabase()
      await closeSharedClient()
    }
  })

  it('refuses a key file owned by another user at start, naming the fix', async () => {
    const file = tempKeyFile()
    try {
      await file.mint(['pets:read'])
      chownSync(file.path, 65534, 65534) // nobody; the tests run as root
      await startService({ API_KEYS_FILE: file.path }).then(
        () => expect.fail('started on a key file owned by another user'),
        (error: Error) => {
          expect(error.message).to.include('service exited with 2')
          expect(error.message).to.include(`is owned by uid 65534`)
          expect(error.message).to.include(`(chown ${process.getuid?.()} ${file.path})`)
        },
      )
    } finally {
      file.remove()
    }
  })

  it('refuses a key file that others can write at start, naming the fix', async () => {
    const file = tempKeyFile()
    try {
      await file.mint(['pets:read'])
      chmodSync(file.path, 0o664)
      await startService({ API_KEYS_FILE: file.path }).then(
        () => expect.fail('started on a key file others can write'),
        (error: Error) => {
          expect(error.message).to.include('service exited with 2')
          expect(error.message).to.include(`chmod 600 ${file.path}`)
        },
      )
    } finally {
      file.remove()
    }
  })
})
