import { accessSync, constants, existsSync, readFileSync } from 'node:fs'

const version = (JSON.parse(readFileSync('package.json', 'utf8')) as { version: string }).version

/**
 * Commands the documentation shows but a test cannot run in place (installs, the whole suite,
 * the deployment, the fuzzing), each with the script `.ci/run` runs it from and how that script
 * says it. A command not listed here fails the test: run it in a test, or add it here once a
 * script of CI runs it.
 */
const RUN_BY_CI: Record<string, readonly [file: string, says: RegExp]> = {
  'npm ci': ['.ci/run', /^step "npm ci" npm ci /m],
  'npm test': ['.ci/run', /^step "npm test \(Node .*" npm test$/m],
  'npm start': ['test/package/deploy.sh', /^PORT=0 HOST=127\.0\.0\.1 .*npm start /m],
  'npm ci --omit=dev': ['test/package/deploy.sh', /^timeout \d+ npm ci --omit=dev /m],
  'npm pack': ['test/package/install.sh', /\$\(npm pack /],
  // The documented lines, as install.sh runs them: the tarball packed beside the consumer, and
  // a clone's URL with no tag (git+file:// standing for the host).
  [`npm install ../animal-store/animal-store-${version}.tgz fp-ts io-ts`]: [
    'test/package/install.sh',
    /npm_quiet install "\.\.\/\$tarball" fp-ts io-ts/,
  ],
  'npm install fp-ts io-ts git+https://<host>/<owner>/animal-store.git': [
    'test/package/install.sh',
    /npm_quiet install fp-ts io-ts "git\+file:\/\/\$work\/clone"\)/,
  ],
  'npm install koa-mount@4 @koa/etag@5 koa-conditional-get@3 @types/koa-mount@4 @types/koa-conditional-get@2':
    [
      'test/package/install.sh',
      /npm_quiet install koa-mount@4 @koa\/etag@5 koa-conditional-get@3 @types\/koa-mount@4 @types\/koa-conditional-get@2\)$/m,
    ],
  'npm run lint:package': [
    '.ci/run',
    /^COUNT_AS_TEST=1 step "publint" npm run --silent lint:package$/m,
  ],
  'npm run lint:types': ['.ci/run', /^COUNT_AS_TEST=1 step .* npm run --silent lint:types$/m],
  'test/package/publish.sh': ['.ci/run', /^COUNT_AS_TEST=1 step .* test\/package\/publish\.sh$/m],
  'npm run docs:api': ['.ci/run', /^COUNT_AS_TEST=1 step .* npm run --silent docs:api$/m],
  '.ci/run': ['.ci/run', /^step "npm test/m],
  'npm run test:koa-versions': ['.ci/run', /^step .* npm run --silent test:koa-versions$/m],
  'npm run test:openapi-clients': ['.ci/run', /^step .* npm run --silent test:openapi-clients$/m],
  'test/fuzz/schemathesis.sh in-memory': ['.ci/run', /test\/fuzz\/schemathesis\.sh in-memory$/m],
  'test/fuzz/schemathesis.sh mongodb': ['.ci/run', /test\/fuzz\/schemathesis\.sh mongodb$/m],
}

/** Why the command is not run by CI as shown, or undefined when it is. */
export const notRunByCi = (command: string): string | undefined => {
  const entry = RUN_BY_CI[command]
  if (entry === undefined) return `"${command}" is not a command CI is known to run`
  const [file, says] = entry
  const text = readFileSync(file, 'utf8')
  if (!says.test(text)) return `${file} no longer runs "${command}" (${says})`
  if (file !== '.ci/run' && !readFileSync('.ci/run', 'utf8').includes(file))
    return `.ci/run no longer runs ${file}`
  return undefined
}

const scripts = (
  JSON.parse(readFileSync('package.json', 'utf8')) as {
    scripts: Record<string, string>
  }
).scripts

/** The file a long-running command runs, whose source must name every option it passes. */
const programOf = (words: ReadonlyArray<string>): string | undefined => {
  if (words[0] === 'npm' && words[1] === 'run') {
    const script = scripts[words[2] ?? '']
    return script?.split(' ').find((word) => /\.(ts|mjs|js|sh)$/.test(word))
  }
  if (words[0] === 'npx' && words[1] === 'tsx') return words[2]
  return words[0]
}

/** Why a long-running command would not run as shown, or undefined. */
export const cannotRun = (command: string): string | undefined => {
  const words = command.split(/\s+/)
  const program = programOf(words)
  if (program === undefined || !existsSync(program))
    return `"${command}" runs no file of this repository`
  if (words[0] !== 'npm' && words[0] !== 'npx') accessSync(program, constants.X_OK)
  const source = readFileSync(program, 'utf8')
  // An option is a key of the program's parseArgs options: `name: {` or `'name': {`.
  const declares = (name: string) => new RegExp(`^\\s*['"]?${name}['"]?: \\{`, 'm').test(source)
  const missing = words.filter((word) => /^--[a-z]/.test(word) && !declares(word.slice(2)))
  return missing.length === 0 ? undefined : `${program} takes no ${missing.join(', ')}`
}
