// The semver level of the change from one set of API reports to another, declaration by
// declaration: what an embedder's code compiled against the first may meet in the second.

export type Level = 'patch' | 'minor' | 'major'
export type Classified = { readonly level: Level; readonly reasons: ReadonlyArray<string> }

export const LEVELS: ReadonlyArray<Level> = ['patch', 'minor', 'major']
export const atLeast = (level: Level, floor: Level): boolean =>
  LEVELS.indexOf(level) >= LEVELS.indexOf(floor)

type Declaration = { readonly exported: boolean; readonly lines: ReadonlyArray<string> }

const NAME =
  /^(?:export\s+)?(?:declare\s+)?(?:abstract\s+)?(?:const|let|var|function|type|interface|class|enum|namespace)\s+([\w$]+)/

// API Extractor writes `// @public` (its release tag) before each top-level declaration. Comments
// are left out of the comparison: a doc comment changes no code that compiles against it.
const declarationsOf = (report: string): ReadonlyMap<string, Declaration> => {
  const body = report.split('```ts')[1]?.split('\n```')[0] ?? ''
  const found = new Map<string, Declaration>()
  for (const block of body.split(/^(?=\/\/ @)/m).slice(1)) {
    const lines = block
      .replace(/\/\*\*[\s\S]*?\*\//g, '')
      .split('\n')
      .map((line) => line.trim().replace(/\s+/g, ' '))
      .filter((line) => line !== '' && !line.startsWith('//'))
    const name = NAME.exec(lines[0] ?? '')?.[1]
    if (name === undefined)
      throw new Error(`a declaration API Extractor wrote has no name:\n${block}`)
    const exported = lines[0]!.startsWith('export ')
    const previous = found.get(name)?.lines ?? []
    const own = [lines[0]!.replace(/^export\s+/, ''), ...lines.slice(1)]
    found.set(name, {
      exported: exported || found.get(name)?.exported === true,
      lines: [...previous, ...own],
    })
  }
  return found
}

// A member added as optional (`name?:` on a line of its own) breaks neither the code that reads
// the type nor the code that writes one; any other change to a declaration does, for someone.
const OPTIONAL_MEMBER = /^(?:readonly )?[\w$]+\?:/

const onlyOptionalAdded = (
  before: ReadonlyArray<string>,
  after: ReadonlyArray<string>,
): boolean => {
  let kept = 0
  const added: string[] = []
  for (const line of after) {
    if (kept < before.length && line === before[kept]) kept += 1
    else added.push(line)
  }
  return kept === before.length && added.every((line) => OPTIONAL_MEMBER.test(line))
}

const compareEntry = (entry: string, before: string, after: string): Classified => {
  const old = declarationsOf(before)
  const now = declarationsOf(after)
  const major: string[] = []
  const minor: string[] = []
  for (const [name, was] of old) {
    const is = now.get(name)
    if (is === undefined || (was.exported && !is.exported)) {
      if (was.exported) major.push(`${entry}: ${name} removed`)
    } else if (was.lines.join('\n') !== is.lines.join('\n')) {
      if (onlyOptionalAdded(was.lines, is.lines))
        minor.push(`${entry}: ${name} gained an optional member`)
      else major.push(`${entry}: ${name} changed`)
    } else if (!was.exported && is.exported) minor.push(`${entry}: ${name} exported`)
  }
  for (const [name, is] of now) {
    if (is.exported && !old.has(name)) minor.push(`${entry}: ${name} added`)
  }
  const level: Level = major.length > 0 ? 'major' : minor.length > 0 ? 'minor' : 'patch'
  return { level, reasons: [...major, ...minor] }
}

/** The level of the change from `released` to `current`, reports keyed by entry point. */
export const classify = (
  released: ReadonlyMap<string, string>,
  current: ReadonlyMap<string, string>,
): Classified => {
  const results: Classified[] = []
  for (const [entry, before] of released) {
    const after = current.get(entry)
    results.push(
      after === undefined
        ? { level: 'major', reasons: [`entry point ${entry} removed`] }
        : compareEntry(entry, before, after),
    )
  }
  for (const entry of current.keys()) {
    if (!released.has(entry))
      results.push({ level: 'minor', reasons: [`entry point ${entry} added`] })
  }
  const level = results.reduce<Level>((top, r) => (atLeast(r.level, top) ? r.level : top), 'patch')
  return { level, reasons: results.flatMap((r) => r.reasons) }
}
