// Every package installed for an embedder (argument: that project's node_modules) runs on every
// Node our own engines field admits: semver.subset(ours, theirs). Prints the offenders.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import semver from 'semver'

const ours = JSON.parse(readFileSync('package.json', 'utf8')).engines.node
const root = process.argv[2]

/** Every package.json under node_modules, scoped and nested packages included. */
const manifests = function* (dir) {
  for (const name of readdirSync(dir)) {
    if (name.startsWith('.')) continue
    const path = join(dir, name)
    if (name.startsWith('@')) yield* manifests(path)
    else {
      yield join(path, 'package.json')
      const nested = join(path, 'node_modules')
      if (readdirSync(path).includes('node_modules')) yield* manifests(nested)
    }
  }
}

const offenders = []
let checked = 0
for (const file of manifests(root)) {
  const { name, version, engines } = JSON.parse(readFileSync(file, 'utf8'))
  checked++
  const theirs = engines?.node
  if (theirs !== undefined && !semver.subset(ours, theirs, { includePrerelease: false }))
    offenders.push(`${name}@${version} wants node ${theirs}`)
}
if (offenders.length > 0) {
  console.error(`our engines say node ${ours}, but:\n${offenders.join('\n')}`)
  process.exit(1)
}
console.log(`engines: all ${checked} installed packages run on node ${ours}`)
