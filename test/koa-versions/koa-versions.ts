import { expect } from 'chai'
import { execFile } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { removeScratch, scratchCopy } from '../recipes/scratch.js'

/*
 * Run by .ci/run, not by `npm test`: it installs Koa from the npm registry. The wire suites run
 * in a copy of the tree whose `koa` is the lowest, then the newest, version of the peer range,
 * and a check in the same run proves that version was loaded and driven by the root writer
 * (koa-internals.ts found nothing different), not by the fallback to `app.callback()`.
 */

const ROOT = resolve(import.meta.dirname, '../..')
const run = promisify(execFile)
const range = (
  JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
    peerDependencies: Record<string, string>
  }
).peerDependencies.koa as string
/** `^3.0.0`'s floor, and the range itself: npm installs the newest version within it. */
const SPECS = [range.replace(/^\^/, ''), range]
const SUITES = ['test/adapters/koa/wire.test.ts', 'test/adapters/koa/server/root-app.test.ts']

const CHECK = `import assert from 'node:assert/strict'
import { realpathSync } from 'node:fs'
import { createRequire } from 'node:module'
import Koa from 'koa'
import { koaShapeDifferences } from '../../adapters/koa/koa-internals.js'

it('loads the Koa under test, which the root writer drives', () => {
  const loaded = realpathSync(createRequire(import.meta.url).resolve('koa'))
  assert.ok(loaded.startsWith(process.env.KOA_DIR ?? '?'), loaded)
  assert.deepEqual(koaShapeDifferences(new Koa()), [])
})
`

/** Koa at `spec`, installed alone in a directory of its own: that directory and its version. */
const installKoa = async (spec: string) => {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'animal-store-koa-')))
  writeFileSync(join(dir, 'package.json'), '{"private":true}')
  const flags = ['--no-audit', '--no-fund', '--no-package-lock', '--ignore-scripts']
  await run('npm', ['install', ...flags, `koa@${spec}`], { cwd: dir })
  const koa = join(dir, 'node_modules', 'koa')
  const { version } = JSON.parse(readFileSync(join(koa, 'package.json'), 'utf8')) as {
    version: string
  }
  return { dir, koa, version }
}

type Report = {
  stats: { passes: number; failures: number }
  failures: Array<{ fullTitle: string }>
}

describe(`The wire suites on the lowest and the newest Koa of the peer range (${range})`, function () {
  this.timeout(600_000)
  for (const spec of SPECS)
    it(`koa@${spec}: every wire test passes, through the root writer`, async () => {
      const koa = await installKoa(spec)
      const copy = scratchCopy({ koa: koa.koa })
      try {
        mkdirSync(join(copy, 'test/koa-versions'), { recursive: true })
        writeFileSync(join(copy, 'test/koa-versions/loaded.check.ts'), CHECK)
        const args = ['--no-config', '--require', 'tsx', '--extension', 'ts', '--reporter', 'json']
        const mocha = join(copy, 'node_modules/.bin/mocha')
        const files = ['test/koa-versions/loaded.check.ts', ...SUITES]
        const env = { ...process.env, KOA_DIR: koa.dir }
        const report = await run(mocha, [...args, '--timeout', '20000', ...files], {
          cwd: copy,
          env,
          maxBuffer: 1 << 24,
        }).then(
          (done) => done.stdout,
          (failed: { stdout?: string }) => failed.stdout ?? '',
        )
        const { stats, failures } = JSON.parse(report) as Report
        console.log(`      koa ${koa.version}: ${stats.passes} passed, ${stats.failures} failed`)
        expect(failures.map((f) => f.fullTitle)).to.deep.equal([])
        expect(stats.passes).to.be.above(10)
      } finally {
        removeScratch(copy)
        rmSync(koa.dir, { recursive: true, force: true })
      }
    })
})
