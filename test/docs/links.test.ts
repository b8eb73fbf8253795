import { existsSync, readFileSync } from 'node:fs'
import { dirname, join, normalize } from 'node:path'
import { expect } from 'chai'
import { DOC_FILES } from './fences.js'

/** The text outside fenced blocks, where links are links. */
const prose = (text: string) => text.replace(/^ *(`{3,})[^\n]*\n[\s\S]*?^ *\1 *$/gm, '')

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
const slug = (heading: string) =>
  heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-')

const anchorsOf = (file: string): Set<string> => {
  const text = prose(readFileSync(file, 'utf8'))
  const headings = [...text.matchAll(/^#{1,6} +(.+)$/gm)].map((m) => slug(m[1] ?? ''))
  const ids = [...text.matchAll(/<a id="([^"]+)"><\/a>/g)].map((m) => m[1] ?? '')
  return new Set([...headings, ...ids])
}

describe('the links of the README and docs/', () => {
  for (const file of DOC_FILES)
    it(`${file}: every link to a file of the repository, and its anchor, exists`, () => {
      const links = [...prose(readFileSync(file, 'utf8')).matchAll(/\]\(([^)\s]+)\)/g)]
        .map((m) => m[1] ?? '')
        .filter((target) => !/^[a-z]+:/.test(target))
      const broken = links.filter((target) => {
        const [path = '', anchor] = target.split('#')
        const linked = path === '' ? file : normalize(join(dirname(file), path))
        if (!existsSync(linked)) return true
        return anchor !== undefined && linked.endsWith('.md') && !anchorsOf(linked).has(anchor)
      })
      expect(broken).to.deep.equal([])
      expect(links.length).to.be.greaterThan(0)
    })
})
