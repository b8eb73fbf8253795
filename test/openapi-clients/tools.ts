import { execFile } from 'node:child_process'
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { homedir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'

/*
 * The two generators at pinned versions, installed once into a cache outside the clone:
 * openapi-typescript and openapi-fetch from the npm registry, openapi-generator's jar from Maven
 * Central through Maven. Neither is a dependency of the project: only this test runs them.
 */

const run = promisify(execFile)

export const VERSIONS = {
  openapiTypescript: '7.13.0',
  openapiFetch: '0.17.0',
  openapiGenerator: '7.25.0',
} as const

const CACHE = join(
  process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'),
  'animal-store',
  'openapi-clients',
)

/** A directory whose node_modules holds openapi-typescript and openapi-fetch. */
export const npmTools = async (): Promise<string> => {
  const dir = join(CACHE, `npm-${VERSIONS.openapiTypescript}-${VERSIONS.openapiFetch}`)
  if (existsSync(join(dir, 'node_modules', 'openapi-fetch', 'package.json'))) return dir
  mkdirSync(dir, { recursive: true })
  writeFileSync(join(dir, 'package.json'), '{"private":true}')
  const flags = ['--no-audit', '--no-fund', '--no-package-lock', '--ignore-scripts']
  await run(
    'npm',
    [
      'install',
      ...flags,
      `openapi-typescript@${VERSIONS.openapiTypescript}`,
      `openapi-fetch@${VERSIONS.openapiFetch}`,
    ],
    { cwd: dir },
  )
  return dir
}

/** The path of openapi-generator's command-line jar. */
export const generatorJar = async (): Promise<string> => {
  const version = VERSIONS.openapiGenerator
  const jar = join(CACHE, `openapi-generator-cli-${version}.jar`)
  if (existsSync(jar)) return jar
  mkdirSync(CACHE, { recursive: true })
  await run('mvn', [
    '-q',
    '-B',
    'dependency:copy',
    `-Dartifact=org.openapitools:openapi-generator-cli:${version}`,
    `-DoutputDirectory=${CACHE}`,
  ])
  return jar
}
