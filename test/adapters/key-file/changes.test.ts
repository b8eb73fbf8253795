import { expect } from 'chai'
import * as E from 'fp-ts/lib/Either.js'
import * as O from 'fp-ts/lib/Option.js'
import { tempKeyFile } from '../../support/minted-keys.js'

const DAY = 86_400_000

describe('key file: changes and pruning', () => {
  it('reads the keys again only after a change: add, revoke, prune', async () => {
    const file = tempKeyFile()
    try {
      const read = async (seen: string | undefined) => {
        const found = await file.registry.readKeysIfChanged(seen)()
        if (E.isLeft(found)) throw new Error(found.left.detail)
        return found.right
      }
      const absent = await read(undefined)
      expect(O.isSome(absent) && absent.value.keys).to.deep.equal([])
      const version = O.isSome(absent) ? absent.value.version : ''
      expect(await read(version)).to.deep.equal(O.none)
      let seen = version
      const changed = async () => {
        const next = await read(seen)
        expect(O.isSome(next), 'a change is seen').to.equal(true)
        seen = O.isSome(next) ? next.value.version : seen
        expect(await read(seen)).to.deep.equal(O.none)
        return O.isSome(next) ? next.value.keys : []
      }
      const { stored } = await file.mint(['pets:read'], DAY, 0)
      expect(await changed()).to.deep.equal([stored])
      await file.registry.revokeKey(stored.id, 5)()
      expect((await changed())[0]?.revokedAt).to.equal(5)
      expect(await file.registry.pruneKeys(6)()).to.deep.equal(E.right(1))
      expect(await changed()).to.deep.equal([])
    } finally {
      file.remove()
    }
  })

  it('prunes keys expired or revoked before the cut-off only, beside concurrent changes', async () => {
    const file = tempKeyFile()
    try {
      await file.mint(['pets:read'], DAY, 0) // expires at DAY: pruned
      const later = (await file.mint(['pets:read'], 10 * DAY, 0)).stored
      const forever = (await file.mint(['pets:read'], null, 0)).stored
      const revoked = (await file.mint(['pets:read'], null, 0)).stored
      await file.registry.revokeKey(revoked.id, 2 * DAY)()
      const recent = (await file.mint(['pets:read'], null, 0)).stored
      await file.registry.revokeKey(recent.id, 4 * DAY)()
      const [pruned, ...added] = await Promise.all([
        file.registry.pruneKeys(3 * DAY)(),
        ...Array.from({ length: 4 }, () => file.mint(['pets:read'])),
      ])
      expect(pruned).to.deep.equal(E.right(2))
      const left = await file.registry.listKeys()()
      expect(E.isRight(left) && left.right.map((k) => k.id).sort()).to.deep.equal(
        [later, forever, recent, ...added.map((a) => a.stored)].map((k) => k.id).sort(),
      )
    } finally {
      file.remove()
    }
  })
})
