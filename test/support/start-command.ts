import { readFileSync } from 'node:fs'

const START_SCRIPT = /^exec node((?: --[\w-]+(?:=\S+)?)*) dist\/apps\/server\/main\.js$/

/**
 * The node flags of the service's start, read from package.json's `start` script (what `npm
 * start` and docs/operations.md run): tests and the benchmark start the service with the same flags,
 * and the script stays their one source.
 */
export const startFlags = (): string[] => {
  const manifest = JSON.parse(
    readFileSync(new URL('../../package.json', import.meta.url), 'utf8'),
  ) as { scripts: { start: string } }
  const match = START_SCRIPT.exec(manifest.scripts.start)
  if (match === null)
    throw new Error(
      `package.json's start script is not "exec node [--flag ...] dist/apps/server/main.js": ${manifest.scripts.start}`,
    )
  return (match[1] ?? '').split(' ').filter((flag) => flag !== '')
}
