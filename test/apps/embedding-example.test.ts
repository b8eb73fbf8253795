import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { expect } from 'chai'

describe('the embedding example of docs/embedding.md', () => {
  it('runs and prints the exact results', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [
      '--import',
      'tsx',
      'apps/embedding-example/main.ts',
    ])
    expect(stdout.split('\n')).to.deep.equal([
      '1 Rex 9223372036854775807',
      'name must not be blank: it needs a visible character, not only whitespace, format or other default-ignorable characters (such as U+200B), fillers (such as U+3164), blank braille patterns (U+2800) or combining marks (such as U+0301)',
      'categoryId must be an integer from 1 to 9223372036854775807',
      '',
    ])
  })

  it('is the example docs/embedding.md shows', async () => {
    const { readFile } = await import('node:fs/promises')
    const readme = await readFile('docs/embedding.md', 'utf8')
    const example = await readFile('apps/embedding-example/main.ts', 'utf8')
    const body = example.slice(example.indexOf('import { pipe }'))
    expect(readme).to.include(body.trim())
  })
})
