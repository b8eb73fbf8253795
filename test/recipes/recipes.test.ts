import { expect } from 'chai'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { auth, startTestApi } from '../support/app.js'
import { startService, type ServiceProcess } from '../support/service-process.js'
import { startFlags } from '../support/start-command.js'
import { APPENDS, DECLARED, HTTP_TEST, NAMED, NEW_FILES } from './count-pets.js'
import { addEntry, type Entry } from './entries.js'
import { ADD_FIELD, ADD_SETTING, ADD_STORE, FIELD_FLAGS, NEW_STORE_FILES } from './recipes.js'
import { appendFiles, flaggedFiles, removeScratch, runIn, scratchCopy } from './scratch.js'
import { writeFiles } from './scratch.js'

const CHECK = ['--noEmit', '-p', '.']
const BUILD = ['-p', 'tsconfig.build.json']

/** Adds the entries to the copy, then lays out the files they touched as Prettier does. */
const addEntries = async (dir: string, entries: ReadonlyArray<Entry>) => {
  for (const entry of entries) addEntry(dir, entry)
  await runIn(dir, 'node_modules/.bin/prettier', ['--write', ...filesOf(entries)])
}
const filesOf = (entries: ReadonlyArray<Entry>) => [...new Set(entries.map((e) => e.file))].sort()

/** The suites that read the route table, the catalogue or the store: the change reaches them. */
const AFFECTED = [
  'test/adapters/koa/routing.test.ts',
  'test/adapters/koa/cors.test.ts',
  'test/adapters/koa/scopes.test.ts',
  'test/adapters/koa/openapi.test.ts',
  'test/adapters/koa/openapi-clients.test.ts',
  'test/adapters/koa/error-catalogue.test.ts',
  'test/adapters/koa/route-table.test.ts',
  'test/adapters/prometheus',
]

type Report = { stats: { failures: number }; passes: Array<{ fullTitle: string }> }

/** The service built in the copy, started as `npm start` starts it. */
const startBuilt = (dir: string, env: Record<string, string>): Promise<ServiceProcess> =>
  startService(env, 30_000, {
    command: {
      file: process.execPath,
      args: [...startFlags(), join(dir, 'dist/apps/server/main.js')],
    },
  })

/**
 * Each recipe of "How to change it", applied to a copy of the tree (one compiler run each,
 * the copy's CPU being the cost): what the page promises must hold.
 */
describe('The recipes of "How to change it", applied to a copy of the tree', function () {
  this.timeout(600_000)
  let dir: string
  let service: ServiceProcess | undefined
  beforeEach(() => (dir = scratchCopy()))
  afterEach(async () => {
    await service?.stop()
    service = undefined
    removeScratch(dir)
  })

  it('an optional Pet field: the compiler flags exactly the files that must describe it', async () => {
    await addEntries(dir, ADD_FIELD)
    expect(await flaggedFiles(dir, CHECK)).to.deep.equal(FIELD_FLAGS)
  })

  it('an operation: from its template, the compiler names each entry; then it works on both stores', async () => {
    writeFiles(dir, NEW_FILES)
    appendFiles(dir, APPENDS)
    await addEntries(dir, DECLARED)
    expect(await flaggedFiles(dir, CHECK)).to.deep.equal(filesOf(NAMED))
    await addEntries(dir, NAMED)
    writeFiles(dir, HTTP_TEST)
    expect(await flaggedFiles(dir, CHECK)).to.deep.equal([])
    await runIn(dir, 'node_modules/.bin/eslint', [
      ...Object.keys(NEW_FILES),
      ...Object.keys(HTTP_TEST),
    ])
    // With the repository's mocha settings, on this run's MongoDB test server: CI on, so the
    // MongoDB suites cannot skip. (Only a run without a server, outside CI, skips them here too.)
    const mongo = process.env.TEST_MONGODB_URI
    const env = mongo === undefined ? {} : { MONGODB_URI: mongo, CI: 'true' }
    const output = join(dir, 'report.json')
    await runIn(
      dir,
      'node_modules/.bin/mocha',
      [
        ...['--reporter', 'json', '--reporter-option', `output=${output}`, '--timeout', '20000'],
        ...Object.keys(HTTP_TEST),
        ...AFFECTED,
      ],
      env,
    )
    const report = JSON.parse(readFileSync(output, 'utf8')) as Report
    expect(report.stats.failures).to.equal(0)
    const counted = report.passes.map((p) => p.fullTitle).filter((t) => t.includes('/pet-count'))
    const backends = mongo === undefined ? ['in-memory'] : ['in-memory', 'mongodb']
    expect(counted.map((t) => t.match(/\[(\S+)\]/)?.[1])).to.deep.equal(backends)
  })

  it('a store adapter: it compiles, passes the contract, and the HTTP suites run on it', async () => {
    writeFiles(dir, NEW_STORE_FILES)
    await addEntries(dir, ADD_STORE)
    expect(await flaggedFiles(dir, CHECK)).to.deep.equal([])
    await runIn(dir, 'node_modules/.bin/eslint', ['adapters/linear'])
    const { stdout } = await runIn(dir, 'node_modules/.bin/mocha', [
      ...['--no-config', '--require', 'tsx', '--extension', 'ts', '--reporter', 'json'],
      ...['--timeout', '20000', '--grep', 'linear', 'test/adapters/linear'],
      'test/adapters/koa/list-pets.test.ts',
    ])
    const report = JSON.parse(stdout) as {
      stats: { passes: number; failures: number }
      passes: Array<{ fullTitle: string }>
    }
    expect(report.stats.failures).to.equal(0)
    const titles = report.passes.map((p) => p.fullTitle)
    expect(titles.some((t) => t.startsWith('PetStore contract') && t.includes('linear'))).to.equal(
      true,
    )
    expect(titles.filter((t) => t.includes('[linear]')).length).to.be.above(3)
  })

  it('a setting: LIST_LIMIT_MAX, once added, sets the largest page over HTTP', async () => {
    // Before: a page of 150 is refused.
    const before = await startTestApi()
    try {
      expect((await before.get('/pets?limit=150')).status).to.equal(400)
    } finally {
      await before.close()
    }
    await addEntries(dir, ADD_SETTING)
    expect(await flaggedFiles(dir, BUILD)).to.deep.equal([])
    service = await startBuilt(dir, { LIST_LIMIT_MAX: '150' })
    const page = (limit: number) =>
      service?.request({ path: `/v1/pets?limit=${limit}`, headers: auth })
    expect((await page(150))?.status).to.equal(200)
    const over = await page(151)
    expect(over?.status).to.equal(400)
    expect(over?.text).to.include('from 1 to 150')
    const doc = (await service.request({ path: '/v1/openapi.json' })).text
    expect(doc).to.include('"minimum":1,"maximum":150,"default":20')
  })
})
