import { expect } from 'chai'
import * as E from 'fp-ts/lib/Either.js'
import * as O from 'fp-ts/lib/Option.js'
import * as TE from 'fp-ts/lib/TaskEither.js'
import { bootstrapKey, createCachedApiKeys, digestOf } from '../../../adapters/in-memory/index.js'
import { storeUnavailable, type StoredKey } from '../../../core/index.js'

const stored = (key: string, revokedAt: number | null = null): StoredKey => ({
  id: `id-${key}`,
  digest: digestOf(key),
  label: key,
  scopes: ['pets:read'],
  createdAt: 0,
  expiresAt: null,
  revokedAt,
})

describe('cached API keys (a shared source, refreshed per instance)', () => {
  let now = 0
  let source: StoredKey[] = []
  let loads = 0
  let fullReads = 0
  let failing = false
  const keys = () =>
    createCachedApiKeys({
      bootstrap: [bootstrapKey('boot')],
      load: (seen) => {
        loads++
        if (failing) return TE.left(storeUnavailable('down'))
        const version = JSON.stringify(source)
        if (version === seen) return TE.right(O.none)
        fullReads++
        return TE.right(O.some({ version, keys: [...source] }))
      },
      now: () => now,
      refreshAfterMs: 2000,
      maxAgeMs: 4000,
    })
  const idOf = async (api: ReturnType<typeof keys>, key: string) => {
    const found = await api.verifyApiKey(key)()
    return E.isRight(found)
      ? O.toUndefined(O.map((p: { keyId: string }) => p.keyId)(found.right))
      : 'store-down'
  }
  beforeEach(() => {
    now = 0
    source = [stored('a')]
    loads = 0
    fullReads = 0
    failing = false
  })

  it('reads the keys again only when their version changed', async () => {
    const api = keys()
    expect(await idOf(api, 'a')).to.equal('id-a')
    for (const at of [2500, 5000, 7500]) {
      now = at
      await idOf(api, 'a')
      await new Promise((resolve) => setImmediate(resolve))
    }
    expect([loads, fullReads]).to.deep.equal([4, 1])
    source = [stored('a'), stored('b')]
    now = 20_000
    expect(await idOf(api, 'b')).to.equal('id-b')
    expect([loads, fullReads]).to.deep.equal([5, 2])
  })

  it('loads before the first answer, then answers from memory until the refresh age', async () => {
    const api = keys()
    expect(await idOf(api, 'a')).to.equal('id-a')
    expect(await idOf(api, 'boot')).to.match(/^key-/)
    now = 2000
    expect(await idOf(api, 'nope')).to.equal(undefined)
    expect(loads).to.equal(1)
  })

  it('refreshes in the background past the refresh age, and waits past the maximum age', async () => {
    const api = keys()
    await idOf(api, 'a')
    source = [stored('a', 1), stored('b')]
    now = 2500
    expect(await idOf(api, 'b')).to.equal(undefined) // answered from the cache, refresh started
    await new Promise((resolve) => setImmediate(resolve))
    expect(await idOf(api, 'b')).to.equal('id-b')
    expect(loads).to.equal(2)
    source = [stored('a', 1)]
    now = 2500 + 4001
    expect(await idOf(api, 'b')).to.equal(undefined) // waited: removed keys are gone at once
    expect(loads).to.equal(3)
  })

  it('reports a revoked key as revoked (authenticate refuses it)', async () => {
    source = [stored('a', 5)]
    const found = await keys().verifyApiKey('a')()
    expect(found).to.deep.equal(
      E.right(O.some({ keyId: 'id-a', scopes: ['pets:read'], revoked: true })),
    )
  })

  it('shares one load among concurrent requests', async () => {
    const api = keys()
    await Promise.all(Array.from({ length: 10 }, () => idOf(api, 'a')))
    expect(loads).to.equal(1)
  })

  it('fails closed (store unavailable) past the maximum age when the keys cannot be read, API_KEYS aside', async () => {
    const api = keys()
    await idOf(api, 'a')
    failing = true
    now = 3000
    expect(await idOf(api, 'a')).to.equal('id-a') // still fresh enough
    now = 9000
    expect(await idOf(api, 'a')).to.equal('store-down')
    expect(await idOf(api, 'nope')).to.equal('store-down')
    // API_KEYS do not come from the source: they keep working while it cannot be read
    expect(await idOf(api, 'boot')).to.match(/^key-/)
    await new Promise((resolve) => setTimeout(resolve, 0)) // the failing read it started ends
    failing = false
    expect(await idOf(api, 'a')).to.equal('id-a')
  })

  it('past the maximum age, answers an API_KEYS key at once while the source stalls; other keys wait for it', async () => {
    let release: () => void = () => {}
    let stalled = false
    const api = createCachedApiKeys({
      bootstrap: [bootstrapKey('boot')],
      load: () => {
        const snapshot = O.some({ version: 'v', keys: [stored('a')] })
        return stalled
          ? () => new Promise((resolve) => (release = () => resolve(E.right(snapshot))))
          : TE.right(snapshot)
      },
      now: () => now,
      refreshAfterMs: 2000,
      maxAgeMs: 4000,
    })
    await api.verifyApiKey('a')()
    stalled = true
    now = 9000
    let otherAnswered = false
    const other = api
      .verifyApiKey('a')()
      .then((found) => ((otherAnswered = true), found))
    const boot = await api.verifyApiKey('boot')()
    expect(E.isRight(boot) && O.isSome(boot.right)).to.equal(true)
    await new Promise((resolve) => setTimeout(resolve, 10))
    expect(otherAnswered, 'a stored key waits for the stalled source').to.equal(false)
    release()
    const found = await other
    expect(E.isRight(found) && O.isSome(found.right)).to.equal(true)
  })
})
