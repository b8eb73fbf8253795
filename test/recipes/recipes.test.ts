import { expect } from 'chai'
import { join } from 'node:path'
import { auth, startTestApi } from '../support/app.js'
import { startService, type ServiceProcess } from '../support/service-process.js'
import { startFlags } from '../support/start-command.js'
import { ADD_FIELD, ADD_SETTING, ADD_STORE, FIELD_FLAGS } from './recipes.js'
import { ADD_OPERATION_ENTRY, ADD_OPERATION_REST, OPERATION_FLAGS } from './recipes.js'
import { applySteps, flaggedFiles, removeScratch, runIn, scratchCopy } from './scratch.js'

const CHECK = ['--noEmit', '-p', '.']
const BUILD = ['-p', 'tsconfig.build.json']

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
    applySteps(dir, ADD_FIELD)
    expect(await flaggedFiles(dir, CHECK)).to.deep.equal(FIELD_FLAGS)
  })

  it('an operation: the compiler names its route, call and decoder; then DELETE works end to end', async () => {
    applySteps(dir, ADD_OPERATION_ENTRY)
    expect(await flaggedFiles(dir, CHECK)).to.deep.equal(OPERATION_FLAGS)
    applySteps(dir, ADD_OPERATION_REST)
    expect(await flaggedFiles(dir, CHECK)).to.deep.equal([])
    const created = ADD_OPERATION_REST.flatMap((step) => ('create' in step ? [step.create] : []))
    await runIn(dir, 'node_modules/.bin/eslint', created)
    const { stdout } = await runIn(dir, 'node_modules/.bin/mocha', [
      ...['--no-config', '--require', 'tsx', '--extension', 'ts', '--reporter', 'json'],
      ...['--timeout', '20000', 'test/adapters/koa/delete-pet.test.ts'],
      ...['test/adapters/in-memory/pet-store.test.ts', 'test/adapters/koa/openapi.test.ts'],
    ])
    const report = JSON.parse(stdout) as {
      stats: { failures: number }
      passes: Array<{ fullTitle: string }>
    }
    expect(report.stats.failures).to.equal(0)
    const titles = report.passes.map((p) => p.fullTitle)
    expect(titles.filter((t) => /DELETE|removes a pet/.test(t))).to.have.length(2)
  })

  it('a store adapter: it compiles, passes the contract, and the HTTP suites run on it', async () => {
    applySteps(dir, ADD_STORE)
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
    applySteps(dir, ADD_SETTING)
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
