import { expect } from 'chai'
import { execFile } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { promisify } from 'node:util'

const run = promisify(execFile)
const root = resolve(import.meta.dirname, '../..')

/** Modules of a scratch tree, each importing what one rule forbids (or allows). */
const FILES: Readonly<Record<string, string>> = {
  'adapters/koa/request/a.ts': "import { r } from '../response/r.js'\nexport const a = r\n",
  'adapters/koa/response/r.ts': 'export const r = 1\n',
  'adapters/koa/response/b.ts': "import { x } from '../app/x.js'\nexport const b = x\n",
  'adapters/koa/app/x.ts': "import { s } from '../server/s.js'\nexport const x = s\n",
  'adapters/koa/server/s.ts': 'export const s = 1\n',
  'adapters/koa/server/t.ts': "import type { X } from '../app/y.js'\nexport type T = X\n",
  'adapters/koa/server/u.ts': "export const u = () => import('../app/y.js')\n",
  'adapters/koa/app/y.ts':
    "import { r } from '../response/r.js'\nexport type X = 1\nexport const y = r\n",
  'adapters/koa/app/routes/p.ts': "import { o } from '../openapi/o.js'\nexport const p = o\n",
  'adapters/koa/app/openapi/o.ts': "import { m } from '../middleware/m.js'\nexport const o = m\n",
  'adapters/koa/app/middleware/m.ts': "import { y } from '../y.js'\nexport const m = y\n",
  'adapters/c/one.ts': "import { two } from './two.js'\nexport const one = () => two\n",
  'adapters/c/two.ts': "import { one } from './one.js'\nexport const two = () => one\n",
  'adapters/c/lazy.ts': "import type { T } from './loader.js'\nexport const lazy: T = 1\n",
  'adapters/c/loader.ts': "export type T = 1\nexport const load = () => import('./lazy.js')\n",
}

type Violation = { readonly from: string; readonly rule: { readonly name: string } }

/** Cruises the scratch tree with the project's configuration; the violations it reports. */
const violationsOf = async (dir: string): Promise<ReadonlyArray<Violation>> => {
  for (const [path, text] of Object.entries(FILES)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true })
    writeFileSync(join(dir, path), text)
  }
  writeFileSync(join(dir, 'tsconfig.json'), '{"compilerOptions":{"module":"NodeNext"}}')
  const bin = join(root, 'node_modules/.bin/depcruise')
  const config = join(root, '.dependency-cruiser.cjs')
  const args = ['adapters', '--config', config, '--output-type', 'json']
  // It exits non-zero when it finds violations, as it should in CI; the report is on stdout.
  const { stdout } = await run(bin, args, { cwd: dir }).catch((e: { stdout: string }) => e)
  return JSON.parse(stdout).summary.violations
}

/** The layer rules are only worth having if they fail when broken. */
describe('layers of the HTTP adapter (dependency-cruiser)', function () {
  this.timeout(60_000)
  let found: ReadonlyArray<string> = []
  before(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'layers-'))
    try {
      found = (await violationsOf(dir)).map((v) => `${v.from} ${v.rule.name}`)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('refuses every import that reaches back up a layer, by any form', () => {
    expect(found).to.include.members([
      'adapters/koa/request/a.ts koa-request-imports-no-other-layer',
      'adapters/koa/response/b.ts koa-response-imports-only-request',
      'adapters/koa/app/x.ts koa-app-imports-no-server',
      'adapters/koa/server/t.ts koa-server-imports-no-app',
      'adapters/koa/server/u.ts koa-server-imports-no-app',
      'adapters/koa/app/routes/p.ts koa-routes-import-no-openapi',
      'adapters/koa/app/openapi/o.ts koa-openapi-imports-no-middleware',
    ])
  })

  it('refuses two modules that import each other, unless a type import closes the cycle', () => {
    // Reported once, from either end.
    const cycles = found.filter((v) => v.endsWith('no-circular'))
    expect(cycles).to.have.length(1)
    expect(cycles[0]).to.match(/^adapters\/c\/(one|two)\.ts /)
  })

  it('allows an import down the layers', () => {
    expect(found).to.have.length(8)
    const allowed = ['app/y.ts', 'app/middleware/m.ts', 'response/r.ts', 'server/s.ts']
    for (const file of allowed) expect(found.join('\n')).not.to.include(`adapters/koa/${file} `)
  })
})
