import { existsSync, utimesSync, writeFileSync } from 'node:fs'
import { expect } from 'chai'
import fc from 'fast-check'
import * as E from 'fp-ts/lib/Either.js'
import { createKeyFile, formatKeyFile, parseKeyFile } from '../../../adapters/key-file/index.js'
import { ALL_SCOPES, type StoredKey } from '../../../core/index.js'
import { mintKey } from '../../../apps/keys/mint.js'
import { tempKeyFile } from '../../support/minted-keys.js'

const instant = fc.integer({ min: 0, max: 4102444800000 })
const storedKey: fc.Arbitrary<StoredKey> = fc.record({
  id: fc.string(),
  digest: fc.stringMatching(/^[0-9a-f]{64}$/),
  label: fc.string(),
  scopes: fc.subarray([...ALL_SCOPES]),
  createdAt: instant,
  expiresAt: fc.option(instant, { nil: null }),
  revokedAt: fc.option(instant, { nil: null }),
})

describe('key file', () => {
  it('reads back exactly what it wrote (property)', () => {
    fc.assert(
      fc.property(fc.array(storedKey, { maxLength: 5 }), (keys) => {
        expect(parseKeyFile(formatKeyFile(keys))).to.deep.equal(E.right(keys))
      }),
    )
  })

  it('refuses a file with a broken line, naming the line, rather than drop a key', () => {
    const good = formatKeyFile([
      {
        id: 'k',
        digest: 'a'.repeat(64),
        label: 'l',
        scopes: [],
        createdAt: 0,
        expiresAt: null,
        revokedAt: null,
      },
    ])
    expect(parseKeyFile(`${good}{oops\n`)).to.deep.equal(E.left('line 2 is not JSON'))
    expect(parseKeyFile(good.replace('a'.repeat(64), 'key'))).to.deep.equal(
      E.left('line 1 is not a key record'),
    )
    // A time that does not parse, expiry included: the key would otherwise never expire.
    const expiring = good.replace('"expiresAt":null', '"expiresAt":"2026-11-23T25:00:00Z"')
    expect(expiring).to.include('T25:00')
    for (const broken of [
      expiring,
      good.replace('"revokedAt":null', '"revokedAt":"soon"'),
      good.replace('1970-01-01T00:00:00.000Z', 'yesterday'),
      // Read leniently, these would be a real time: 2 March, and a time in the local zone.
      good.replace('"expiresAt":null', '"expiresAt":"2026-02-30T00:00:00Z"'),
      good.replace('"expiresAt":null', '"expiresAt":"2026-12-01T00:00:00"'),
    ])
      expect(parseKeyFile(broken)).to.deep.equal(E.left('line 1 has a time that is not ISO 8601'))
  })

  it('holds no keys when missing; adds and revokes (once) by id', async () => {
    const file = tempKeyFile()
    try {
      expect(await file.registry.listKeys()()).to.deep.equal(E.right([]))
      const { stored } = await file.mint(['pets:read'])
      expect(await file.registry.revokeKey(stored.id, 10)()).to.deep.equal(E.right(true))
      expect(await file.registry.revokeKey(stored.id, 20)()).to.deep.equal(E.right(true))
      expect(await file.registry.revokeKey('nope', 20)()).to.deep.equal(E.right(false))
      expect(await file.registry.listKeys()()).to.deep.equal(
        E.right([{ ...stored, revokedAt: 10 }]),
      )
      writeFileSync(file.path, 'garbage\n')
      const broken = await file.registry.listKeys()()
      expect(E.isLeft(broken) && broken.left.detail).to.include('line 1 is not JSON')
    } finally {
      file.remove()
    }
  })

  it('lets writers take turns: keys added and revoked at once are all kept', async () => {
    const file = tempKeyFile()
    try {
      const { stored: victim } = await file.mint(['pets:read'])
      const [revoked, ...minted] = await Promise.all([
        file.registry.revokeKey(victim.id, 10)(),
        ...Array.from({ length: 8 }, () => file.mint(['pets:read'])),
      ])
      expect(revoked).to.deep.equal(E.right(true))
      const keys = await file.registry.listKeys()()
      expect(E.isRight(keys) && keys.right.map((k) => k.id).sort()).to.deep.equal(
        [victim, ...minted.map((m) => m.stored)].map((k) => k.id).sort(),
      )
      expect(E.isRight(keys) && keys.right.find((k) => k.id === victim.id)?.revokedAt).to.equal(10)
      expect(existsSync(`${file.path}.lock`), 'the lock is removed').to.equal(false)
    } finally {
      file.remove()
    }
  })

  it('waits for a lock held by another run, then gives up without writing; takes over a stale one', async () => {
    const file = tempKeyFile()
    try {
      const registry = createKeyFile(file.path, { waitMs: 200, staleMs: 60_000 })
      writeFileSync(`${file.path}.lock`, '')
      const started = Date.now()
      const refused = await registry.addKey(mintKey('x', ['pets:read'], null, 0).stored)()
      expect(Date.now() - started).to.be.at.least(200)
      expect(E.isLeft(refused) && refused.left.detail).to.include('.lock is held by another run')
      expect(await registry.listKeys()()).to.deep.equal(E.right([]))
      // A lock a killed run left behind, a minute old: taken over.
      const aMinuteAgo = new Date(Date.now() - 61_000)
      utimesSync(`${file.path}.lock`, aMinuteAgo, aMinuteAgo)
      const { stored } = mintKey('y', ['pets:read'], null, 0)
      expect(await registry.addKey(stored)()).to.deep.equal(E.right(undefined))
      expect(await registry.listKeys()()).to.deep.equal(E.right([stored]))
      expect(existsSync(`${file.path}.lock`)).to.equal(false)
    } finally {
      file.remove()
    }
  })
})
