// `npm run api:report`: writes the report of each entry point from dist/ into api-report/.
// `npm run api:report -- --release` also keeps them as the release's, in api-report/X.Y.Z/
// (X.Y.Z from package.json), in place of the previous release's.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'
import { buildReports } from './reports.js'
import { REPORTS, SUFFIX } from './committed.js'

const writeFolder = (folder: string, reports: ReadonlyMap<string, string>): void => {
  mkdirSync(folder, { recursive: true })
  for (const file of readdirSync(folder)) {
    if (file.endsWith(SUFFIX)) rmSync(join(folder, file))
  }
  for (const [name, text] of reports) writeFileSync(join(folder, `${name}${SUFFIX}`), text)
}

const writeReports = (release: boolean): void => {
  const reports = buildReports('.')
  writeFolder(REPORTS, reports)
  console.log(`${REPORTS}/: ${[...reports.keys()].join(', ')}`)
  if (!release) return
  const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string }
  for (const entry of readdirSync(REPORTS, { withFileTypes: true })) {
    if (entry.isDirectory()) rmSync(join(REPORTS, entry.name), { recursive: true })
  }
  writeFolder(join(REPORTS, version), reports)
  console.log(`${REPORTS}/${version}/: the reports of release ${version}`)
}

// Only as a command: mocha loads every module of a folder it is given.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { values } = parseArgs({
    options: {
      release: { type: 'boolean', default: false },
    },
  })
  writeReports(values.release)
}
