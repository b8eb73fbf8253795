import { expect } from 'chai'
import { execFile } from 'node:child_process'
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs'
import { writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { startTestApi, TEST_KEY, type TestApi } from '../support/app.js'
import { generatorJar, npmTools } from './tools.js'

/*
 * Run by .ci/run, not by `npm test` (it installs the generators): the recipes of
 * docs/generated-clients.md. Both generators build clients from the committed docs/openapi.json
 * with the page's own commands; the generated code and the recipes compile under `nodenext`
 * (strict, the generated code's own types checked), then each recipe runs against the service.
 */

const ROOT = resolve(import.meta.dirname, '../..')
const PAGE = 'docs/generated-clients.md'
const run = promisify(execFile)
const INT64_MAX = '9223372036854775807'

/** The page's generator commands: the lines of its `text` blocks that run a generator. */
const commandsOf = (page: string) =>
  [...page.matchAll(/^```text\n([\s\S]*?)^```$/gm)]
    .flatMap(([, body]) => (body ?? '').replace(/\\\n\s*/g, '').split('\n'))
    .filter((line) => /^(npx openapi-typescript|java -jar) /.test(line))

const TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    lib: ['ES2023', 'DOM'],
    module: 'nodenext',
    moduleResolution: 'nodenext',
    strict: true,
    skipLibCheck: false,
    outDir: 'out',
    types: ['node'],
    typeRoots: [join(ROOT, 'node_modules/@types')],
  },
  include: ['*.ts', 'generated/**/*.ts'],
}

/** Wraps fetch to print each URL a recipe calls, so that the test sees `after` as it was sent. */
const RECORD_FETCH = `const original = globalThis.fetch
globalThis.fetch = (input, init) => {
  process.stderr.write('fetch ' + (input instanceof Request ? input.url : String(input)) + '\\n')
  return original(input, init)
}
`

type Output = { created: Record<string, unknown>; page: unknown; again: unknown }

describe(`Generated clients: the recipes of ${PAGE}`, function () {
  this.timeout(900_000)
  let dir = ''
  let api: TestApi

  before(async () => {
    const [tools, jar] = await Promise.all([npmTools(), generatorJar()])
    dir = mkdtempSync(join(tmpdir(), 'animal-store-clients-'))
    cpSync(join(ROOT, 'docs/openapi.json'), join(dir, 'docs/openapi.json'))
    for (const folder of ['recipes', 'checks'])
      cpSync(join(ROOT, 'test/openapi-clients', folder), dir, { recursive: true })
    symlinkSync(join(tools, 'node_modules'), join(dir, 'node_modules'))
    writeFileSync(join(dir, 'package.json'), '{"private":true,"type":"module"}')
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(TSCONFIG))
    writeFileSync(join(dir, 'record-fetch.mjs'), RECORD_FETCH)
    mkdirSync(join(dir, 'generated'))
    const commands = commandsOf(readFileSync(join(ROOT, PAGE), 'utf8'))
    expect(commands).to.have.length(3)
    for (const command of commands) {
      const [program = '', ...args] = command
        .replace(/^npx openapi-typescript/, join(tools, 'node_modules/.bin/openapi-typescript'))
        .replace('openapi-generator-cli.jar', jar)
        .split(' ')
      await run(program, args, { cwd: dir, maxBuffer: 1 << 24 })
    }
    await run(join(ROOT, 'node_modules/.bin/tsc'), ['-p', '.'], { cwd: dir }).catch(
      (failed: { stdout?: string }) => {
        throw new Error(`the generated clients do not compile:\n${failed.stdout ?? ''}`)
      },
    )
    writeFileSync(join(dir, 'out/package.json'), '{"type":"module"}')
    api = await startTestApi()
  })

  it('typescript-fetch needs importFileExtension=.js: without it, nodenext refuses its imports', async () => {
    const command = commandsOf(readFileSync(join(ROOT, PAGE), 'utf8')).find((line) =>
      line.includes('-o generated/typescript-fetch '),
    )
    const args = (command ?? '')
      .replace(' --additional-properties=importFileExtension=.js', '')
      .replace('-o generated/typescript-fetch ', '-o bare/typescript-fetch ')
      .split(' ')
      .slice(3)
    expect(args).to.not.include('--additional-properties=importFileExtension=.js')
    await run('java', ['-jar', await generatorJar(), ...args], { cwd: dir, maxBuffer: 1 << 24 })
    const config = {
      ...TSCONFIG,
      include: ['bare/**/*.ts'],
      compilerOptions: { ...TSCONFIG.compilerOptions, noEmit: true },
    }
    writeFileSync(join(dir, 'tsconfig.bare.json'), JSON.stringify(config))
    const compiled = await run(join(ROOT, 'node_modules/.bin/tsc'), ['-p', 'tsconfig.bare.json'], {
      cwd: dir,
    }).then(
      () => '',
      (failed: { stdout?: string }) => failed.stdout ?? '',
    )
    expect(compiled).to.match(
      /error TS283[45]: Relative import paths need explicit file extensions/,
    )
  })

  after(async () => {
    await api?.close()
    if (dir !== '') rmSync(dir, { recursive: true, force: true })
  })

  const runRecipe = async (name: string) => {
    const env = {
      ...process.env,
      BASE_URL: `http://127.0.0.1:${api.port}/v1`,
      KEY: TEST_KEY,
    }
    const args = ['--import', './record-fetch.mjs', `out/${name}.js`]
    const { stdout, stderr } = await run(process.execPath, args, { cwd: dir, env })
    return { output: JSON.parse(stdout) as Output, urls: stderr.split('\n') }
  }

  for (const generator of ['openapi-fetch', 'typescript-fetch'])
    describe(generator, () => {
      it('plain form: ids are numbers; after above 2^53 is sent digit for digit', async () => {
        const { output, urls } = await runRecipe(`${generator}-plain`)
        expect(output.created).to.include({ name: 'Rex', categoryId: 7 })
        expect(output.created.id).to.be.a('number')
        expect(output.again).to.deep.equal(output.created)
        expect(output.page).to.deep.equal([])
        expect(urls.some((url) => url.endsWith('/v1/pets?after=9007199254740993'))).to.equal(true)
      })

      it('string form: categoryId 2^63-1 and after 2^63-2 round-trip exactly', async () => {
        const { output, urls } = await runRecipe(`${generator}-string`)
        expect(output.created).to.include({ name: 'Rex', categoryId: INT64_MAX })
        expect(output.created.id).to.match(/^[1-9][0-9]*$/)
        expect(output.again).to.deep.equal(output.created)
        expect(output.page).to.deep.equal([])
        expect(urls.some((url) => url.endsWith('/v1/pets?after=9223372036854775806'))).to.equal(
          true,
        )
      })
    })
})
