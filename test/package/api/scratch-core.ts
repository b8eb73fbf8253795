// A scratch copy of core/ built as the package's `.` entry point alone, to show what the API
// check makes of a change to the code (test/package/api/api-report.test.ts).
import { execFileSync } from 'node:child_process'
import { cpSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc')

/** Copies core/, lets `edit` change the copy, and builds its declarations; returns its folder. */
export const buildScratchCore = (edit: (folder: string) => void): string => {
  const folder = mkdtempSync(join(tmpdir(), 'api-scratch-'))
  cpSync('core', join(folder, 'core'), { recursive: true })
  symlinkSync(resolve('node_modules'), join(folder, 'node_modules'))
  const { name } = JSON.parse(readFileSync('package.json', 'utf8')) as { name: string }
  const exports = { '.': { types: './dist/core/index.d.ts', default: './dist/core/index.js' } }
  writeFileSync(join(folder, 'package.json'), JSON.stringify({ name, type: 'module', exports }))
  const compilerOptions = { noEmit: false, emitDeclarationOnly: true, outDir: 'dist', rootDir: '.' }
  const config = { extends: resolve('tsconfig.build.json'), compilerOptions, include: ['core'] }
  writeFileSync(join(folder, 'tsconfig.build.json'), JSON.stringify(config))
  edit(folder)
  execFileSync(process.execPath, [tsc, '-p', join(folder, 'tsconfig.build.json')], {
    stdio: 'inherit',
  })
  return folder
}
