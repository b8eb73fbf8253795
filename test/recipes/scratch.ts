import { execFile, execFileSync } from 'node:child_process'
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { appendFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { promisify } from 'node:util'

const ROOT = resolve(import.meta.dirname, '../..')
const run = promisify(execFile)

/**
 * A copy of the tracked tree (as it is in the work tree), sharing node_modules; `packages` puts
 * other directories in place of some of its packages (`{ koa: '/tmp/…/node_modules/koa' }`).
 */
export const scratchCopy = (packages: Readonly<Record<string, string>> = {}): string => {
  const dir = mkdtempSync(join(tmpdir(), 'animal-store-recipe-'))
  const files = execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' })
  for (const file of files.split('\0')) {
    if (file === '' || !existsSync(join(ROOT, file))) continue
    mkdirSync(dirname(join(dir, file)), { recursive: true })
    copyFileSync(join(ROOT, file), join(dir, file))
  }
  if (Object.keys(packages).length === 0)
    symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'))
  else linkModules(join(dir, 'node_modules'), packages)
  return dir
}

/** node_modules as links to the tree's own packages, but for those `packages` replaces. */
const linkModules = (target: string, packages: Readonly<Record<string, string>>): void => {
  mkdirSync(target)
  for (const name of readdirSync(join(ROOT, 'node_modules')))
    if (packages[name] === undefined)
      symlinkSync(join(ROOT, 'node_modules', name), join(target, name))
  for (const [name, path] of Object.entries(packages)) symlinkSync(path, join(target, name))
}

export const removeScratch = (dir: string): void => rmSync(dir, { recursive: true, force: true })

/** The files the compiler flags (relative paths, sorted); none when it compiles. */
export const flaggedFiles = async (dir: string, args: ReadonlyArray<string>): Promise<string[]> => {
  const tsc = join(dir, 'node_modules/.bin/tsc')
  const output = await run(tsc, [...args], { cwd: dir, maxBuffer: 1 << 24 }).then(
    (done) => done.stdout,
    (failed: { stdout?: string }) => failed.stdout ?? String(failed),
  )
  const files = [...output.matchAll(/^([^\s(]+\.m?ts)\(\d+,\d+\): error/gm)].map(([, f]) => f)
  if (files.length === 0 && output.trim() !== '') throw new Error(`tsc failed:\n${output}`)
  return [...new Set(files as string[])].sort()
}

/** Runs a command in the copy, with `env` added to ours; resolves to its output, rejects with it. */
export const runIn = async (
  dir: string,
  file: string,
  args: ReadonlyArray<string>,
  env: Readonly<Record<string, string>> = {},
) => run(file, [...args], { cwd: dir, maxBuffer: 1 << 24, env: { ...process.env, ...env } })

/** Writes new files into the copy, each path with its text. */
export const writeFiles = (dir: string, files: Readonly<Record<string, string>>): void => {
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, file)), { recursive: true })
    writeFileSync(join(dir, file), text)
  }
}

/** Adds text at the end of files of the copy. */
export const appendFiles = (dir: string, appends: ReadonlyArray<readonly [string, string]>) => {
  for (const [file, text] of appends) appendFileSync(join(dir, file), text)
}
