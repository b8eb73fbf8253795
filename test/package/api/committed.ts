// The committed reports: api-report/NAME.api.md is the API as it is now, and
// api-report/X.Y.Z/ the API of release X.Y.Z, the newest in CHANGELOG.md.
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

export const REPORTS = 'api-report'
export const SUFFIX = '.api.md'
/** The one command that writes the reports from the build (docs/contributing.md). */
export const COMMAND = 'npm run api:report'

export const readReports = (
  folder: string,
  missing = `run \`${COMMAND}\``,
): ReadonlyMap<string, string> => {
  if (!existsSync(folder)) throw new Error(`${folder} is missing: ${missing}`)
  return new Map(
    readdirSync(folder)
      .filter((file) => file.endsWith(SUFFIX))
      .map((file) => [file.slice(0, -SUFFIX.length), readFileSync(join(folder, file), 'utf8')]),
  )
}

export const releasedFolder = (root: string, version: string): string =>
  join(root, REPORTS, version)
