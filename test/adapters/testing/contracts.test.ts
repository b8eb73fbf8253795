import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { expect } from 'chai'
import { idempotencyStoreContract, petStoreContract } from '../../../adapters/testing/index.js'

describe('the contracts of the test kit', function () {
  this.timeout(60_000)

  /** Runs the contract under node:test on a broken store; the TAP output, having failed. */
  const failingRun = async (broken: string): Promise<string> => {
    const run = promisify(execFile)(
      process.execPath,
      [
        '--import',
        'tsx',
        '--test',
        '--test-reporter=tap',
        'test/adapters/testing/broken-store.fixture.ts',
      ],
      { env: { ...process.env, BROKEN: broken } },
    )
    const failure = await run.then(
      () => expect.fail(`the store that breaks "${broken}" passed`),
      (error: { code: number; stdout: string }) => error,
    )
    expect(failure.code).to.equal(1)
    return failure.stdout
  }

  it('fails a store that breaks the model, under node:test, by the rule it breaks', async () => {
    const ignoresAfter = await failingRun('after')
    // Two rules broken, every other test of the contract passed: however many it has.
    const tests = Number(/^# tests (\d+)$/m.exec(ignoresAfter)?.[1])
    expect(tests).to.be.above(5)
    expect(ignoresAfter).to.match(new RegExp(`^# pass ${tests - 2}$`, 'm'))
    expect(ignoresAfter).to.match(/^# fail 2$/m)
    expect(ignoresAfter).to.match(/not ok \d+ - lists pages as the model says/)
    expect(ignoresAfter).to.match(/not ok \d+ - serves pages as large as the service asks for/)
    // A store that serves at most half the largest page the API asks for (and one more).
    expect(await failingRun('cap')).to.match(
      /not ok \d+ - serves pages as large as the service asks for/,
    )
    expect(await failingRun('trim')).to.match(
      /not ok \d+ - stores a pet under a new id and finds it exactly as given/,
    )
  })

  it('fails a pet store that ignores the op of a keyed insert', async () => {
    const output = await failingRun('op')
    for (const rule of [
      'stores one pet for an op inserted twice',
      'stores one pet for an op inserted concurrently',
      'answers an op with its own pet after other inserts',
    ])
      expect(output).to.match(new RegExp(`not ok \\d+ - keyed insert: ${rule}`))
  })

  it('fails an idempotency store whose claims are not exclusive, or not scoped', async () => {
    const reclaims = await failingRun('claim')
    expect(reclaims).to.match(/not ok \d+ - claims a new key once; a later claim finds the record/)
    expect(reclaims).to.match(/^\s*ok \d+ - gives exactly one of concurrent claims of a key$/m)
    expect(await failingRun('scope')).to.match(
      /not ok \d+ - scopes keys per API key, and gives each claim its own op/,
    )
  })

  it('asks for the idempotency manifest rather than guessing what a store supports', () => {
    const factory = async () => expect.fail('never called')
    const register = (options: unknown) => () =>
      idempotencyStoreContract('no manifest', factory, options as never)
    for (const options of [undefined, {}, { supports: {} }])
      expect(register(options)).to.throw(
        TypeError,
        'idempotencyStoreContract needs options.supports: { atomicTakeOver: boolean }',
      )
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
