import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect } from 'chai'
import * as E from 'fp-ts/lib/Either.js'
import { createKeyFile } from '../../../adapters/key-file/index.js'

const BYTES = 20 * 2 ** 20
/** One key record with a label of `labelLength` characters. */
const record = (id: number, labelLength: number) =>
  JSON.stringify({
    id: `k${id}`,
    digest: 'a'.repeat(64),
    label: 'x'.repeat(labelLength),
    scopes: ['pets:read'],
    createdAt: '2026-01-01T00:00:00.000Z',
    expiresAt: null,
    revokedAt: null,
  })

/** Milliseconds to read every key of the file, the best of two, and how many keys it held. */
const timeRead = async (path: string) => {
  let best = Infinity
  let keys = 0
  for (let i = 0; i < 2; i++) {
    const started = performance.now()
    const read = await createKeyFile(path).listKeys()()
    best = Math.min(best, performance.now() - started)
    keys = E.isRight(read) ? read.right.length : -1
  }
  return { ms: best, keys }
}

/**
 * A key file is read in a time linear in its size, whatever its lines: one line of 20 MB
 * without a newline takes about as long as 20 MB of ordinary lines (a ratio, not a time: the
 * host's speed cancels out).
 */
describe('key file: one line of 20 MB', function () {
  this.timeout(180_000)
  const dir = mkdtempSync(join(tmpdir(), 'animal-store-long-line-'))
  after(() => rmSync(dir, { recursive: true, force: true }))

  it('reads in a time comparable to the same bytes in ordinary lines', async () => {
    const oneLine = join(dir, 'one-line.jsonl')
    const single = record(0, BYTES - record(0, 0).length)
    writeFileSync(oneLine, single, { mode: 0o600 })
    const perLine = record(0, 200).length + 1
    const count = Math.round(BYTES / perLine)
    const lines = Array.from({ length: count }, (_, i) => record(i, 200 - String(i).length) + '\n')
    const ordinary = join(dir, 'ordinary.jsonl')
    writeFileSync(ordinary, lines.join(''), { mode: 0o600 })

    const many = await timeRead(ordinary)
    const one = await timeRead(oneLine)
    expect(many.keys).to.equal(count)
    expect(one.keys).to.equal(1)
    expect(one.ms / many.ms, `one line ${one.ms} ms, ordinary lines ${many.ms} ms`).to.be.below(3)
  })
})
