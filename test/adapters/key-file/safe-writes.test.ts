import {
  chmodSync,
  chownSync,
  lstatSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { dirname, join } from 'node:path'
import { expect } from 'chai'
import * as E from 'fp-ts/lib/Either.js'
import * as O from 'fp-ts/lib/Option.js'
import { checkKeyFileStats } from '../../../adapters/key-file/index.js'
import { tempKeyFile } from '../../support/minted-keys.js'

const modeOf = (path: string) => statSync(path).mode & 0o777

describe('key file: writes and permissions', () => {
  it('writes through a new private file, never through a planted symbolic link or 0644 file', async () => {
    const file = tempKeyFile()
    try {
      const target = join(dirname(file.path), 'world-writable')
      writeFileSync(target, 'untouched\n')
      chmodSync(target, 0o666)
      symlinkSync(target, `${file.path}.tmp`)
      await file.mint(['pets:write'])
      await file.mint(['pets:read'])
      expect(lstatSync(file.path).isSymbolicLink()).to.equal(false)
      expect(modeOf(file.path).toString(8)).to.equal('600')
      expect(readFileSync(target, 'utf8')).to.equal('untouched\n')
      const left = readdirSync(dirname(file.path)).sort()
      expect(left, 'no temporary file is left').to.deep.equal(
        ['keys.jsonl', 'keys.jsonl.tmp', 'world-writable'].sort(),
      )
    } finally {
      file.remove()
    }
  })

  it('writes a private file whatever a planted 0644 temporary file or the old file had', async () => {
    const file = tempKeyFile()
    try {
      writeFileSync(`${file.path}.tmp`, 'planted\n')
      chmodSync(`${file.path}.tmp`, 0o644)
      writeFileSync(file.path, '')
      chmodSync(file.path, 0o644)
      await file.mint(['pets:read'])
      expect(modeOf(file.path).toString(8)).to.equal('600')
      expect(readFileSync(`${file.path}.tmp`, 'utf8')).to.equal('planted\n')
    } finally {
      file.remove()
    }
  })

  it('refuses to read a key file that others can write, saying how to fix it', async () => {
    const file = tempKeyFile()
    try {
      await file.mint(['pets:read'])
      chmodSync(file.path, 0o666)
      const read = await file.registry.readKeysIfChanged(undefined)()
      expect(E.isLeft(read) && read.left.detail)
        .to.include('others could add a key')
        .and.include(`chmod 600 ${file.path}`)
      chmodSync(file.path, 0o644) // readable only: read (the service warns at start)
      const keys = await file.registry.readKeysIfChanged(undefined)()
      expect(E.isRight(keys) && O.isSome(keys.right) && keys.right.value.keys.length).to.equal(1)
    } finally {
      file.remove()
    }
  })

  it('refuses to read a key file owned by another user than the reader, root aside', async () => {
    const file = tempKeyFile()
    try {
      await file.mint(['pets:read'])
      chownSync(file.path, 65534, 65534) // nobody; the tests run as root
      const read = await file.registry.readKeysIfChanged(undefined)()
      expect(E.isLeft(read) && read.left.detail).to.include('is owned by uid 65534')
      const stats = { mode: 0o100600, uid: 0 }
      expect(checkKeyFileStats(file.path, stats, 1000)._tag, 'owned by root').to.equal('Private')
      expect(checkKeyFileStats(file.path, { ...stats, uid: 1000 }, 1000)._tag).to.equal('Private')
      expect(checkKeyFileStats(file.path, { ...stats, uid: 1001 }, 1000)).to.deep.equal({
        _tag: 'OwnedByOther',
        reason: `key file ${file.path} is owned by uid 1001, not by this service's user (uid 1000) or root: that user could add a key to it (chown 1000 ${file.path})`,
      })
    } finally {
      file.remove()
    }
  })
})
