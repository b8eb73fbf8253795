// What `npm publish --dry-run` does not check (see publish.sh): reads its --json report, the
// changelog and the release tags.
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'

const pkg = JSON.parse(readFileSync('package.json', 'utf8'))
const report = JSON.parse(readFileSync(process.argv[2], 'utf8'))[pkg.name]
const problems = []
if (pkg.private !== undefined) problems.push('package.json says "private": npm would refuse it')
if (report === undefined) problems.push(`the dry run did not report ${pkg.name}`)
const semver = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(-[0-9A-Za-z.-]+)?$/
if (!semver.test(pkg.version)) problems.push(`version ${pkg.version} is not semantic`)

// Keep a Changelog: the first heading with a version is the newest release.
const newest = readFileSync('CHANGELOG.md', 'utf8').match(
  /^## \[(\d[^\]]*)\] - \d{4}-\d{2}-\d{2}$/m,
)
if (newest?.[1] !== pkg.version)
  problems.push(`CHANGELOG.md's newest release is ${newest?.[1]}, package.json's ${pkg.version}`)

// Every release tag has its changelog entry (the lead tags vX.Y.Z on main at a release).
const changelog = readFileSync('CHANGELOG.md', 'utf8')
const tags = execFileSync('git', ['tag', '--list', 'v*'], { encoding: 'utf8' }).split('\n')
for (const tag of tags.filter((t) => semver.test(t.slice(1))))
  if (!changelog.includes(`## [${tag.slice(1)}] - `))
    problems.push(`tag ${tag} has no entry in CHANGELOG.md`)

const files = new Set((report?.files ?? []).map((f) => f.path))
const targets = Object.values(pkg.exports).flatMap((t) =>
  typeof t === 'string' ? [t] : Object.values(t),
)
for (const file of ['CHANGELOG.md', 'LICENSE', ...targets.map((t) => t.replace(/^\.\//, ''))])
  if (!files.has(file)) problems.push(`${file} is not in the package`)

if (problems.length > 0) {
  console.error(problems.join('\n'))
  process.exit(1)
}
console.log(`${pkg.name}@${pkg.version}: ${files.size} files, would publish (dry run)`)
