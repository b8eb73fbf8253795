import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { normalize } from 'node:path'
import { expect } from 'chai'

/*
 * The README is the package's page: every relative link in it must reach a file the tarball
 * holds (docs/ ships for that). And `npm pack` in a clone, as the README says to run it, leaves
 * no untracked file behind.
 */

const packed = (): Set<string> => {
  const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
    encoding: 'utf8',
  })
  const [report] = JSON.parse(out) as Array<{ files: Array<{ path: string }> }>
  return new Set(report?.files.map((file) => file.path))
}

/** The README's links outside fenced blocks that are not URLs, without their anchors. */
const relativeLinks = (text: string): string[] =>
  [...text.replace(/^ *(`{3,})[^\n]*\n[\s\S]*?^ *\1 *$/gm, '').matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => (m[1] ?? '').split('#')[0] ?? '')
    .filter((target) => target !== '' && !/^[a-z]+:/.test(target))

describe('the packed README', function () {
  this.timeout(60_000)

  it('links only to files the package holds', () => {
    const files = packed()
    const links = relativeLinks(readFileSync('README.md', 'utf8'))
    expect(links.length).to.be.greaterThan(10)
    expect(links.filter((link) => !files.has(normalize(link)))).to.deep.equal([])
    expect(files.has('docs/openapi.json')).to.equal(true)
  })

  it('`npm pack` in a clone leaves no untracked file: its tarball is ignored', () => {
    const { name, version } = JSON.parse(readFileSync('package.json', 'utf8')) as {
      name: string
      version: string
    }
    const ignored = execFileSync('git', ['check-ignore', `${name}-${version}.tgz`], {
      encoding: 'utf8',
    })
    expect(ignored.trim()).to.equal(`${name}-${version}.tgz`)
  })
})
