import { readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect } from 'chai'
import { COMMAND, readReports, releasedFolder, REPORTS } from './committed.js'
import { newestRelease, uncovered, wrongBump } from './changelog-level.js'
import { buildReports } from './reports.js'
import { buildScratchCore } from './scratch-core.js'
import { classify } from './semver-level.js'

const changelog = readFileSync('CHANGELOG.md', 'utf8')

describe('the published API (api-report/)', function () {
  this.timeout(120_000)

  it('is the report of every entry point as built', () => {
    const built = buildReports('.')
    const committed = readReports(REPORTS)
    expect(
      [...committed.keys()].sort(),
      `entry points; run \`${COMMAND}\` (this test reads dist/)`,
    ).to.deep.equal([...built.keys()].sort())
    for (const [name, text] of built) {
      expect(
        committed.get(name),
        `${REPORTS}/${name}.api.md; run \`${COMMAND}\` (this test reads dist/)`,
      ).to.equal(text)
    }
  })

  it("differs from the newest release's no more than CHANGELOG.md's Unreleased declares", () => {
    const version = newestRelease(changelog)
    const released = readReports(
      releasedFolder('.', version),
      `the reports of release ${version}, kept by \`${COMMAND} -- --release\` when it was made`,
    )
    const change = classify(released, readReports(REPORTS))
    expect(uncovered(change, changelog)).to.equal(undefined)
  })

  it('has the newest release in CHANGELOG.md numbered for the level its entries declare', () => {
    expect(wrongBump(changelog)).to.equal(undefined)
  })
})

describe('the API check, on a scratch copy of core/', function () {
  this.timeout(120_000)
  let folder = ''
  afterEach(() => rmSync(folder, { recursive: true, force: true }))

  it('asks for a Breaking entry when the PetStore port gains a method', () => {
    const method = '  readonly deletePet: (id: PetId) => TE.TaskEither<StoreUnavailable, boolean>\n'
    folder = buildScratchCore((copy) => {
      const file = join(copy, 'core/ports/pet-store.ts')
      const port = readFileSync(file, 'utf8')
      writeFileSync(
        file,
        port.replace('export type PetStore = {\n', (line) => line + method),
      )
    })
    const built = buildReports(folder)
    const committed = readReports(REPORTS)
    const change = classify(committed, new Map([...committed, ...built]))
    expect(change).to.deep.equal({ level: 'major', reasons: ['animal-store: PetStore changed'] })
    const added = '## [Unreleased]\n\n### Added\n\n- `PetStore` has `deletePet`.\n\n## [2.0.0]\n'
    expect(uncovered(change, added)).to.match(/declares minor: it needs an entry starting with/)
  })
})
