import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { expect } from 'chai'
import { startFlags } from '../../support/start-command.js'

const KEYS = 100_000
/** The file is read 8 KB at a time (docs/api-keys.md). */
const CHUNK_BYTES = 8192
/**
 * The longest turn may hold at most this share of the whole read's CPU time, measured in the
 * same process: a fixed bound in milliseconds would move with the host, this one does not. A
 * slice takes a few hundredths of the whole; a read or an index built in one turn takes most of it.
 */
const MAX_SHARE_OF_WHOLE = 0.1

type Measured = {
  lagMaxMs: number
  wallMs: number
  cpuMs: number
  turns: number
  fileBytes: number
  wholeCpuMs: number
  fullReads: number
  checkMs: number
  accepted: boolean
}

/** In a process of its own, started as the service is: other tests' heaps do not weigh on it. */
const measure = async (path: string): Promise<Measured> => {
  const script = join(import.meta.dirname, '../../support/key-refresh-lag.ts')
  const { stdout } = await promisify(execFile)(
    process.execPath,
    // One collector thread: the process's CPU time is then the event loop's (plus file reads),
    // not also that of the collector's threads marking beside it.
    [...startFlags(), '--single-threaded-gc', '--import', 'tsx', script, path, String(KEYS)],
    { timeout: 90_000 },
  )
  return JSON.parse(stdout) as Measured
}

describe('key file: refreshing 100,000 keys', function () {
  this.timeout(120_000)

  const share = (r: Measured) => r.cpuMs / r.wholeCpuMs

  it(`reads a piece per turn, no turn doing a tenth of the whole, and a check without a change reads nothing`, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'animal-store-lag-'))
    try {
      // The best of three runs: a collector pause lands in some turn whatever the code does, and
      // a regression (a whole read in one turn) fails all three.
      const runs: Measured[] = []
      for (let i = 0; i < 3 && runs.every((r) => share(r) >= MAX_SHARE_OF_WHOLE); i++)
        runs.push(await measure(join(dir, 'keys.jsonl')))
      const measured = runs.reduce((best, r) => (share(r) < share(best) ? r : best))
      expect(measured.accepted, 'the last key of the file is accepted').to.equal(true)
      expect(measured.turns, 'at least one turn per 8 KB of the file').to.be.at.least(
        Math.floor(measured.fileBytes / CHUNK_BYTES),
      )
      // The CPU time of the longest turn: monitorEventLoopDelay's maximum (lagMaxMs, printed on
      // failure) also counts the time the process waited for a core.
      expect(share(measured), JSON.stringify(runs)).to.be.below(MAX_SHARE_OF_WHOLE)
      // The check past the maximum age found the file unchanged by its stat alone.
      expect(measured.fullReads).to.equal(1)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
