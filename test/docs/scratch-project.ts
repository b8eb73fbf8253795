import { execFile } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { promisify } from 'node:util'

const run = promisify(execFile)
const ROOT = resolve('.')

/** What an embedder installs: the package itself, its peers, and the types to check them. */
const LINKED = [
  'fp-ts',
  'io-ts',
  'koa',
  '@koa/router',
  'mongodb',
  // docs/http.md reads exact integers with lossless-json, as a client of the service would.
  'lossless-json',
  'fast-check',
  'swagger-ui-dist',
  '@types/koa',
  '@types/node',
]

const TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    lib: ['ES2023'],
    module: 'nodenext',
    moduleResolution: 'nodenext',
    types: ['node'],
    strict: true,
    noUncheckedIndexedAccess: true,
    exactOptionalPropertyTypes: true,
    skipLibCheck: false,
    rootDir: 'src',
    outDir: 'out',
  },
  include: ['src'],
}

/** The packages an `npm install` line names, versions left out: `@koa/etag@5` is `@koa/etag`. */
export const packagesOf = (command: string): string[] =>
  command
    .split(/\s+/)
    .slice(2)
    .filter((word) => !word.startsWith('-'))
    .map((word) => word.replace(/(.)@[^/@]*$/, '$1'))

/**
 * A project outside the repository that imports `animal-store` by its name, as an embedder's
 * does: node_modules links to this repository (its package.json `exports` and the built dist/)
 * and to the peers installed here, so every module is loaded once; `also` names more packages
 * to link, as a documented install line gives them.
 */
export const createScratchProject = (also: ReadonlyArray<string> = []) => {
  const dir = mkdtempSync(join(tmpdir(), 'animal-store-docs-'))
  const link = (name: string, target: string) => {
    mkdirSync(dirname(join(dir, 'node_modules', name)), { recursive: true })
    symlinkSync(target, join(dir, 'node_modules', name), 'dir')
  }
  link('animal-store', ROOT)
  for (const name of [...LINKED, ...also]) link(name, join(ROOT, 'node_modules', name))
  mkdirSync(join(dir, 'src'))
  writeFileSync(join(dir, 'package.json'), '{"type":"module","private":true}\n')
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(TSCONFIG, null, 2))
  return {
    dir,
    /** Writes src/NAME.ts; its compiled program will be out/NAME.js. */
    add: (name: string, code: string) => writeFileSync(join(dir, 'src', `${name}.ts`), code),
    /** Typechecks and compiles every program at once (one compiler start). */
    compile: () =>
      run(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', dir], {
        cwd: dir,
      }),
    runProgram: (name: string, env: Record<string, string>, timeoutMs: number) =>
      run(process.execPath, [join(dir, 'out', `${name}.js`)], {
        cwd: dir,
        env: { ...process.env, ...env },
        timeout: timeoutMs,
      }),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  }
}
