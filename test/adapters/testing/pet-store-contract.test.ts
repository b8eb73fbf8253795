import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { expect } from 'chai'
import { petStoreContract } from '../../../adapters/testing/index.js'

describe('the PetStore contract of the test kit', function () {
  this.timeout(60_000)

  it('fails a store that breaks the model, under node:test', async () => {
    const run = promisify(execFile)(process.execPath, [
      '--import',
      'tsx',
      '--test',
      '--test-reporter=tap',
      'test/adapters/testing/broken-store.fixture.ts',
    ])
    const failure = await run.then(
      () => expect.fail('the broken store passed'),
      (error: { code: number; stdout: string }) => error,
    )
    expect(failure.code).to.equal(1)
    expect(failure.stdout).to.match(/^# pass 6$/m)
    expect(failure.stdout).to.match(/^# fail 1$/m)
    expect(failure.stdout).to.match(/not ok \d+ - lists pages as the model says/)
  })

  it('says what to pass when no runner defines the globals', () => {
    const saved = globalThis.describe
    try {
      ;(globalThis as { describe?: unknown }).describe = undefined
      expect(() => petStoreContract('none', async () => expect.fail('never called'))).to.throw(
        /no global describe: run under mocha, or pass \{ describe, it, beforeEach, afterEach \}/,
      )
    } finally {
      globalThis.describe = saved
    }
  })
})
