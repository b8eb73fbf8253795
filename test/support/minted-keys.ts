import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createKeyFile } from '../../adapters/key-file/index.js'
import { mintKey } from '../../apps/keys/mint.js'
import type { Scope } from '../../core/index.js'

/** A key file in a fresh temporary directory, and a way to mint keys into it. */
export const tempKeyFile = () => {
  const dir = mkdtempSync(join(tmpdir(), 'animal-store-keys-'))
  const path = join(dir, 'keys.jsonl')
  const registry = createKeyFile(path)
  return {
    path,
    registry,
    mint: async (
      scopes: ReadonlyArray<Scope>,
      expiresInMs: number | null = null,
      now = Date.now(),
    ) => {
      const minted = mintKey('test', scopes, expiresInMs, now)
      const added = await registry.addKey(minted.stored)()
      if (added._tag === 'Left') throw new Error(added.left.detail)
      return minted
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  }
}
