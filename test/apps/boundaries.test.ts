import { expect } from 'chai'
import { ESLint } from 'eslint'

/** The dependency rule is only worth having if it fails when broken. */
describe('dependency direction (ESLint)', () => {
  const eslint = new ESLint()
  const errorsIn = async (code: string, filePath: string) =>
    (await eslint.lintText(code, { filePath }))[0]?.messages.map((m) => m.message) ?? []

  it('refuses imports other than fp-ts, io-ts, lossless-json and core itself in core/', async () => {
    for (const source of [
      'koa',
      'mongodb',
      'node:http',
      'lossless-json-extra',
      'fp-ts-contrib',
      '../../adapters/koa/index.js',
      '../../apps/server/config.js',
    ]) {
      const errors = await errorsIn(
        `import x from '${source}'\nexport const y = x\n`,
        'core/use-cases/example.ts',
      )
      expect(errors.join(), source).to.match(/core\//)
    }
    expect(
      await errorsIn(`export const z = process.env.X\n`, 'core/domain/example.ts'),
    ).to.have.length(1)
    expect(
      await errorsIn(
        `import * as t from 'io-ts'\nimport { pipe } from 'fp-ts/lib/function.js'\nimport { parse } from 'lossless-json'\nimport { PetStatus } from '../domain/pet-status.js'\nexport const y = [t, pipe, parse, PetStatus]\n`,
        'core/use-cases/example.ts',
      ),
    ).to.deep.equal([])
  })

  it('sees every way of naming a module: re-export, dynamic import, require, type import, path', async () => {
    const coreRefused = [
      "export * from '../../adapters/koa/index.js'\n",
      "export { createKoaApp } from '../../adapters/koa/index.js'\n",
      "export const f = () => import('koa')\n",
      'export const f = (p: string) => import(p)\n', // a module the rule cannot read
      "export type K = typeof import('koa')\n",
      "import x = require('koa')\nexport const y = x\n",
      // relative, yet outside core/
      "import x from '../../node_modules/koa/dist/koa.mjs'\nexport const y = x\n",
      "import x from '../../bench/servers.js'\nexport const y = x\n",
    ]
    for (const code of coreRefused)
      expect((await errorsIn(code, 'core/use-cases/example.ts')).join(), code).to.match(
        /core\/ imports only/,
      )
    const adapterRefused = [
      "export * from '../in-memory/index.js'\n",
      "export const f = () => import('../mongodb/index.js')\n",
      "import { x } from 'animal-store/in-memory'\nexport const y = x\n", // the package's own name
      `import { x } from '${process.cwd()}/adapters/in-memory/index.js'\nexport const y = x\n`,
    ]
    for (const code of adapterRefused)
      expect((await errorsIn(code, 'adapters/koa/example.ts')).join(), code).to.match(
        /adapter imports core/,
      )
  })

  it('refuses an adapter importing another adapter or apps, whatever its name or depth', async () => {
    const refused: Array<[string, string]> = [
      ['../in-memory/index.js', 'adapters/koa/example.ts'],
      ['../../apps/server/config.js', 'adapters/koa/example.ts'],
      ['../mongodb/index.js', 'adapters/koa/example.ts'],
      ['../../some-future-adapter/x.js', 'adapters/koa/middleware/example.ts'],
      ['../koa/index.js', 'adapters/brand-new/example.ts'],
      // The test kit is an adapter too: it proves adapters through core's port, never through one.
      ['../in-memory/index.js', 'adapters/testing/example.ts'],
      ['../testing/index.js', 'adapters/koa/example.ts'],
    ]
    for (const [source, file] of refused) {
      const errors = await errorsIn(`import x from '${source}'\nexport const y = x\n`, file)
      expect(errors.join(), `${source} from ${file}`).to.match(/adapter imports core/)
    }
    const allowed: Array<[string, string]> = [
      ['../../../core/index.js', 'adapters/koa/middleware/example.ts'],
      ['../problem.js', 'adapters/koa/middleware/example.ts'],
      ['./documents.js', 'adapters/mongodb/example.ts'],
    ]
    for (const [source, file] of allowed)
      expect(
        await errorsIn(`import x from '${source}'\nexport const y = x\n`, file),
        `${source} from ${file}`,
      ).to.deep.equal([])
  })
})
