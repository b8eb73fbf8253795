import { expect } from 'chai'
import * as E from 'fp-ts/lib/Either.js'
import * as O from 'fp-ts/lib/Option.js'
import { API_KEYS_COLLECTION, createMongoApiKeyRegistry } from '../../../adapters/mongodb/index.js'
import { mintKey } from '../../../apps/keys/mint.js'
import type { ApiKeyRegistry, KeySnapshot } from '../../../core/index.js'
import {
  closeSharedClient,
  freshDatabaseName,
  requireMongo,
  sharedClient,
} from '../../support/mongo.js'

const DAY = 86_400_000

describe('MongoDB adapter: minted keys, read again only after a change', function () {
  this.timeout(30_000)
  let registry: ApiKeyRegistry
  let database: string
  let uri: string
  beforeEach(async () => {
    uri = requireMongo(this.ctx)
    database = freshDatabaseName()
    registry = createMongoApiKeyRegistry((await sharedClient(uri)).db(database))
  })
  after(() => closeSharedClient())
  afterEach(async () => {
    await (await sharedClient(uri)).db(database).dropDatabase()
  })

  const read = async (seen: string | undefined): Promise<O.Option<KeySnapshot>> => {
    const found = await registry.readKeysIfChanged(seen)()
    if (E.isLeft(found)) throw new Error(found.left.detail)
    return found.right
  }
  /** The keys after a change, checking that the change was seen and that nothing else is. */
  const changedSince = async (seen: string) => {
    const next = await read(seen)
    if (O.isNone(next)) throw new Error('the change was not seen')
    expect(await read(next.value.version)).to.deep.equal(O.none)
    return next.value
  }

  it('sees every add, revoke and prune through the version, and nothing else', async () => {
    const first = await read(undefined)
    const empty = O.isSome(first) ? first.value : { version: '', keys: [] }
    expect(empty.keys).to.deep.equal([])
    expect(await read(empty.version)).to.deep.equal(O.none)
    const { stored } = mintKey('a', ['pets:read'], DAY, 0)
    await registry.addKey(stored)()
    const added = await changedSince(empty.version)
    expect(added.keys).to.deep.equal([stored])
    await registry.revokeKey(stored.id, 5)()
    const revoked = await changedSince(added.version)
    expect(revoked.keys[0]?.revokedAt).to.equal(5)
    // A write that changes no key leaves the version alone
    const db = (await sharedClient(uri)).db(database)
    expect(await db.collection(API_KEYS_COLLECTION).countDocuments()).to.equal(1)
    expect(await registry.pruneKeys(1)()).to.deep.equal(E.right(0))
    expect(await read(revoked.version)).to.deep.equal(O.none)
    expect(await registry.pruneKeys(6)()).to.deep.equal(E.right(1))
    expect((await changedSince(revoked.version)).keys).to.deep.equal([])
  })

  it('prunes keys expired or revoked before the cut-off only', async () => {
    const expired = mintKey('expired', ['pets:read'], DAY, 0).stored
    const later = mintKey('later', ['pets:read'], 10 * DAY, 0).stored
    const forever = mintKey('forever', ['pets:read'], null, 0).stored
    const revoked = mintKey('revoked', ['pets:read'], null, 0).stored
    for (const key of [expired, later, forever, revoked]) await registry.addKey(key)()
    await registry.revokeKey(revoked.id, 2 * DAY)()
    expect(await registry.pruneKeys(3 * DAY)()).to.deep.equal(E.right(2))
    const left = await registry.listKeys()()
    expect(E.isRight(left) && left.right.map((k) => k.id).sort()).to.deep.equal(
      [later.id, forever.id].sort(),
    )
  })
})
