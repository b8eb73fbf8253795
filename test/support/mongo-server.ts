/**
 * Mocha global fixture: gives the MongoDB suites a server. MONGODB_URI wins when set (a real
 * MongoDB, say); otherwise the FerretDB test server (test/ferretdb) is built and started on a
 * free loopback port with a fresh data directory, and stopped at the end. In CI a server that
 * cannot start fails the run; locally the MongoDB suites say why they are skipped.
 */
import { execFileSync } from 'node:child_process'

const FERRETDB = 'test/ferretdb'
let startedPid: string | undefined

const startFerretDb = (): Record<string, string> => {
  const out = execFileSync(`${FERRETDB}/start.sh`, {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  return Object.fromEntries(
    out
      .trim()
      .split('\n')
      .map((line) => line.split(/=(.*)/s).slice(0, 2) as [string, string]),
  )
}

export const mochaGlobalSetup = (): void => {
  if (process.env.MONGODB_URI) {
    process.env.TEST_MONGODB_URI = process.env.MONGODB_URI
    // A server this run did not start is not this run's to stop: a mocha run started by a test
    // (the recipes') inherits its parent's pid, and must leave the parent's server running.
    delete process.env.TEST_FERRETDB_PID
    return
  }
  try {
    const started = startFerretDb()
    startedPid = started.FERRETDB_PID
    process.env.TEST_MONGODB_URI = started.MONGODB_URI
    process.env.TEST_FERRETDB_PID = started.FERRETDB_PID
    process.env.TEST_FERRETDB_DATA = started.FERRETDB_DATA
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr ?? String(error)
    const why = `no MongoDB server for the MongoDB suites: set MONGODB_URI, or install Go so that ${FERRETDB}/start.sh can build FerretDB (${stderr.trim()})`
    if (process.env.CI === 'true') throw new Error(why)
    process.env.TEST_MONGODB_MISSING = why
    console.warn(`\n!!! ${why}\n!!! The MongoDB suites are SKIPPED in this run.\n`)
  }
}

export const mochaGlobalTeardown = (): void => {
  const pid = process.env.TEST_FERRETDB_PID ?? startedPid
  if (pid !== undefined) execFileSync(`${FERRETDB}/stop.sh`, [pid], { stdio: 'ignore' })
}
