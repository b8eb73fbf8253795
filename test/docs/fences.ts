import { readdirSync, readFileSync } from 'node:fs'

/** A fenced code block of a markdown file: its language, the words after it, and its text. */
export type Block = {
  readonly file: string
  readonly line: number
  readonly lang: string
  readonly flags: ReadonlyArray<string>
  readonly code: string
}

/** The pages whose code blocks are a contract: the README and every page of docs/. */
export const DOC_FILES = [
  'README.md',
  ...readdirSync('docs')
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`),
]

const OPENING = /^( *)(`{3,}|~{3,})(.*)$/

/** Every fenced block of a markdown text, in order (indented fences of list items included). */
export const blocksOf = (file: string, text: string): Block[] => {
  const lines = text.split('\n')
  const blocks: Block[] = []
  for (let i = 0; i < lines.length; i++) {
    const open = OPENING.exec(lines[i] ?? '')
    if (open === null) continue
    const [, indent = '', fence = '', info = ''] = open
    const body: string[] = []
    let j = i + 1
    for (; j < lines.length; j++) {
      const line = lines[j] ?? ''
      const closing = line.trim()
      if (closing.length >= fence.length && [...closing].every((c) => c === fence[0])) break
      body.push(line.startsWith(indent) ? line.slice(indent.length) : line)
    }
    const [lang = '', ...flags] = info
      .trim()
      .split(/\s+/)
      .filter((word) => word !== '')
    blocks.push({ file, line: i + 1, lang, flags, code: body.join('\n') + '\n' })
    i = j
  }
  return blocks
}

export const allBlocks = (): Block[] =>
  DOC_FILES.flatMap((file) => blocksOf(file, readFileSync(file, 'utf8')))

/** The commands of a shell block: one a line, comments and blank lines left out. */
export const commandsOf = (code: string): string[] =>
  code
    .split('\n')
    .map((line) => line.replace(/(^|\s)#.*$/, '').trim())
    .filter((line) => line !== '')
    .flatMap((line) => line.split(/\s*&&\s*/))
