import { execFile } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { promisify } from 'node:util'
import { expect } from 'chai'

const EXAMPLE = 'apps/testing-example/my-store.test.ts'

describe('the test-kit example of docs/embedding.md', function () {
  this.timeout(60_000)

  it('proves the in-memory stores under node:test through animal-store/testing', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [
      '--import',
      'tsx',
      '--test',
      '--test-reporter=tap',
      EXAMPLE,
    ])
    expect(stdout).to.include('# Subtest: PetStore contract: my pet store')
    expect(stdout).to.include('# Subtest: IdempotencyStore contract: my idempotency store')
    const tests = Number(/^# tests (\d+)$/m.exec(stdout)?.[1])
    expect(tests).to.be.above(10)
    expect(stdout).to.match(new RegExp(`^# pass ${tests}$`, 'm'))
    expect(stdout).to.match(/^# fail 0$/m)
  })

  it('is the example docs/embedding.md shows', async () => {
    const readme = await readFile('docs/embedding.md', 'utf8')
    expect(readme).to.include((await readFile(EXAMPLE, 'utf8')).trim())
  })
})
