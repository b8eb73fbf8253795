import { readFileSync } from 'node:fs'
import { expect } from 'chai'
import { ERROR_CATALOGUE } from '../../core/index.js'

/** The rows of the table under "## Error codes" in docs/http.md: code, status, when. */
const rows = () => {
  const page = readFileSync('docs/http.md', 'utf8')
  const section = page.slice(
    page.indexOf('## Error codes'),
    page.indexOf('## The OpenAPI document'),
  )
  return [...section.matchAll(/^\| `(\w+)` +\| (\d+) +\| (.+?) +\|$/gm)].map(
    ([, code, status, when]) => ({ code, status: Number(status), when }),
  )
}

describe('docs/http.md', () => {
  it('has the error catalogue as its table of codes: each code, its status and when, in order', () => {
    const catalogue = Object.entries(ERROR_CATALOGUE).map(([code, { status, when }]) => ({
      code,
      status,
      when,
    }))
    expect(catalogue.length).to.be.greaterThan(10)
    expect(rows()).to.deep.equal(catalogue)
  })
})
