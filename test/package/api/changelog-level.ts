// What CHANGELOG.md says of the next version: the newest release, and the semver level its
// `[Unreleased]` section declares (docs/contributing.md, "The published API").
import { atLeast, type Classified, type Level } from './semver-level.js'

/** The newest release's version: the first `## [X.Y.Z]` heading. */
export const newestRelease = (changelog: string): string => {
  const version = /^## \[(\d+\.\d+\.\d+)\]/m.exec(changelog)?.[1]
  if (version === undefined) throw new Error('CHANGELOG.md has no release heading "## [X.Y.Z]"')
  return version
}

const unreleasedOf = (changelog: string): string => {
  const start = changelog.indexOf('## [Unreleased]')
  if (start < 0) throw new Error('CHANGELOG.md has no "## [Unreleased]" section')
  const end = changelog.indexOf('\n## [', start + 1)
  return changelog.slice(start, end < 0 ? undefined : end)
}

const listUnder = (section: string, heading: string): string =>
  section.split(/^### /m).find((part) => part.startsWith(`${heading}\n`)) ?? ''

/**
 * Major when an entry starts with **Breaking**, minor when `### Added` lists anything, else
 * patch.
 */
export const declaredLevel = (changelog: string): Level => {
  const section = unreleasedOf(changelog)
  if (/^- \*\*Breaking\*\*/m.test(section)) return 'major'
  if (/^- /m.test(listUnder(section, 'Added'))) return 'minor'
  return 'patch'
}

const HOW: Record<Level, string> = {
  major: 'an entry starting with **Breaking** that says what breaks and what to write instead',
  minor: 'an entry under ### Added',
  patch: 'nothing',
}

/** Why the changelog does not cover the change, or undefined when it does. */
export const uncovered = (change: Classified, changelog: string): string | undefined => {
  const declared = declaredLevel(changelog)
  if (atLeast(declared, change.level)) return undefined
  return [
    `The published API changed at the ${change.level} level since ${newestRelease(changelog)},`,
    `but CHANGELOG.md's [Unreleased] section declares ${declared}: it needs ${HOW[change.level]}.`,
    ...change.reasons.map((reason) => `  ${reason}`),
  ].join('\n')
}
