import { execFile } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { promisify } from 'node:util'
import { expect } from 'chai'

const EXAMPLE = 'apps/testing-example/my-store.test.ts'

describe('the test-kit example of the README', function () {
  this.timeout(60_000)

  it('proves the in-memory store under node:test through animal-store/testing', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [
      '--import',
      'tsx',
      '--test',
      '--test-reporter=tap',
      EXAMPLE,
    ])
    expect(stdout).to.include('# Subtest: PetStore contract: my store')
    expect(stdout).to.match(/^# pass 12$/m)
    expect(stdout).to.match(/^# fail 0$/m)
  })

  it('is the example the README shows', async () => {
    const readme = await readFile('README.md', 'utf8')
    expect(readme).to.include((await readFile(EXAMPLE, 'utf8')).trim())
  })
})
