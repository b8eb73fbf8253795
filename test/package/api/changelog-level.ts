// What CHANGELOG.md says of the next version: the newest release, and the semver level its
// `[Unreleased]` section declares (docs/contributing.md, "The published API").
import { atLeast, type Classified, type Level } from './semver-level.js'

/** The newest release's version: the first `## [X.Y.Z]` heading. */
export const newestRelease = (changelog: string): string => {
  const version = /^## \[(\d+\.\d+\.\d+)\]/m.exec(changelog)?.[1]
  if (version === undefined) throw new Error('CHANGELOG.md has no release heading "## [X.Y.Z]"')
  return version
}

const sectionOf = (changelog: string, heading: string): string => {
  const start = changelog.indexOf(`## [${heading}]`)
  if (start < 0) throw new Error(`CHANGELOG.md has no "## [${heading}]" section`)
  const end = changelog.indexOf('\n## [', start + 1)
  return changelog.slice(start, end < 0 ? undefined : end)
}

const listUnder = (section: string, heading: string): string =>
  section.split(/^### /m).find((part) => part.startsWith(`${heading}\n`)) ?? ''

/**
 * Major when an entry starts with **Breaking**, minor when `### Added` lists anything, else
 * patch.
 */
export const declaredLevel = (changelog: string, heading = 'Unreleased'): Level => {
  const section = sectionOf(changelog, heading)
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

/** The level of the step from one version to a higher one; undefined when it is not higher. */
const bumpOf = (from: string, to: string): Level | undefined => {
  const [a, b] = [from, to].map((v) => v.split('.').map(Number)) as [number[], number[]]
  const at = [0, 1, 2].find((i) => a[i] !== b[i])
  if (at === undefined || b[at]! < a[at]!) return undefined
  return (['major', 'minor', 'patch'] as const)[at]
}

/**
 * Why the newest release's version is not a bump of the level its entries declare from the
 * release before it, or undefined when it is (or when it is the first).
 */
export const wrongBump = (changelog: string): string | undefined => {
  const [newest, previous] = [...changelog.matchAll(/^## \[(\d+\.\d+\.\d+)\]/gm)].map((m) => m[1]!)
  if (newest === undefined || previous === undefined) return undefined
  const declared = declaredLevel(changelog, newest)
  const bump = bumpOf(previous, newest)
  if (bump !== undefined && atLeast(bump, declared)) return undefined
  return `CHANGELOG.md's ${newest} follows ${previous}, but its entries declare ${declared}`
}
