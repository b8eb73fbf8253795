import { expect } from 'chai'
import { readReports, REPORTS } from './committed.js'
import { uncovered, wrongBump } from './changelog-level.js'
import { classify } from './semver-level.js'

// Changes made to the committed report's text, as a change of the code would make them.
const current = readReports(REPORTS)
const core = current.get('animal-store') ?? ''
const PORT = 'export type PetStore = {\n'

const withCore = (text: string): ReadonlyMap<string, string> =>
  new Map([...current, ['animal-store', text]])
const levelOf = (text: string) => classify(current, withCore(text))

const changelogWith = (unreleased: string): string =>
  `# Changelog\n\n## [Unreleased]\n\n${unreleased}\n## [2.0.0] - 2026-11-26\n\n- First.\n`

describe('the semver level of a change of the API report', () => {
  it('reads the port it changes below (the report holds PetStore)', () => {
    expect(core).to.include(PORT)
  })

  it('is patch when nothing but doc comments changed', () => {
    const commented = core.replace(PORT, `/** Where pets live. */\n${PORT}`)
    expect(levelOf(commented)).to.deep.equal({ level: 'patch', reasons: [] })
    expect(classify(current, current).level).to.equal('patch')
  })

  it('is major when the PetStore port, which embedders implement, gains a method', () => {
    const port = core.replace(PORT, `${PORT}    readonly deletePet: (id: PetId) => void;\n`)
    const change = levelOf(port)
    expect(change).to.deep.equal({ level: 'major', reasons: ['animal-store: PetStore changed'] })
    const onlyAdded = changelogWith('### Added\n\n- `PetStore` has `deletePet`.\n')
    expect(uncovered(change, onlyAdded)).to.match(/declares minor[^]*PetStore changed/)
    const breaking = changelogWith('### Changed\n\n- **Breaking**: `PetStore` has `deletePet`.\n')
    expect(uncovered(change, breaking)).to.equal(undefined)
  })

  it('is minor when a type gains an optional member, or the entry point an export', () => {
    const optional = core.replace(PORT, `${PORT}    readonly deletePet?: (id: PetId) => void;\n`)
    expect(levelOf(optional).level).to.equal('minor')
    const added = core.replace(
      '// @public\nexport type PetStore',
      '// @public\nexport const x: 1;\n\n// @public\nexport type PetStore',
    )
    expect(levelOf(added)).to.deep.equal({ level: 'minor', reasons: ['animal-store: x added'] })
    expect(uncovered(levelOf(added), changelogWith('### Fixed\n\n- A fix.\n'))).to.match(/Added/)
    expect(uncovered(levelOf(added), changelogWith('### Added\n\n- `x`.\n'))).to.equal(undefined)
  })

  it('is major when an export is removed or no longer exported', () => {
    expect(levelOf(core.replace(PORT, 'type PetStore = {\n')).reasons).to.deep.equal([
      'animal-store: PetStore removed',
    ])
    const removed = new Map([...current].filter(([name]) => name !== 'koa'))
    expect(classify(current, removed)).to.deep.equal({
      level: 'major',
      reasons: ['entry point koa removed'],
    })
    expect(classify(removed, current).level).to.equal('minor')
  })
})

describe('the version of a release', () => {
  const release = (version: string, entries: string) =>
    `# Changelog\n\n## [Unreleased]\n\n## [${version}] - 2027-01-01\n\n${entries}\n` +
    '## [2.0.0] - 2026-11-26\n\n- First.\n'
  const breaking = '### Changed\n\n- **Breaking**: `PetStore` has `deletePet`.\n'
  const added = '### Added\n\n- `x`.\n'

  it('is a major step after entries starting with **Breaking**', () => {
    expect(wrongBump(release('3.0.0', breaking))).to.equal(undefined)
    expect(wrongBump(release('2.1.0', breaking))).to.match(/2\.1\.0 follows 2\.0\.0[^]*major/)
  })

  it('is at least a minor step after Added entries, and any step after fixes', () => {
    expect(wrongBump(release('2.1.0', added))).to.equal(undefined)
    expect(wrongBump(release('2.0.1', added))).to.match(/declare minor/)
    expect(wrongBump(release('2.0.1', '### Fixed\n\n- A fix.\n'))).to.equal(undefined)
    expect(wrongBump(release('1.9.0', '### Fixed\n\n- A fix.\n'))).to.match(/follows 2\.0\.0/)
  })
})
