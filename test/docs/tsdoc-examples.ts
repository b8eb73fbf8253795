import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Block } from './fences.js'

/** Every source file of the package (the service's metrics adapter is not in it). */
const sourcesUnder = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return entry.name === 'prometheus' ? [] : sourcesUnder(path)
    return entry.name.endsWith('.ts') ? [path] : []
  })

const EXAMPLE = /@example\s*\n\s*\*\s*```ts\n([\s\S]*?)\n\s*\*\s*```/g

/** The ```ts programs of the `@example` tags of a source text, each with its line. */
export const examplesOf = (file: string, text: string): Block[] =>
  [...text.matchAll(EXAMPLE)].map((match) => ({
    file,
    line: text.slice(0, match.index).split('\n').length,
    lang: 'ts',
    flags: [],
    code: `${(match[1] ?? '').replace(/^\s*\* ?/gm, '')}\n`,
  }))

/** The examples of the API reference: what TypeDoc shows under each function's "Example". */
export const allExamples = (): Block[] =>
  ['core', 'adapters'].flatMap(sourcesUnder).flatMap((file) => {
    const text = readFileSync(file, 'utf8')
    return text.includes('@example') ? examplesOf(file, text) : []
  })
