import { existsSync } from 'node:fs'
import { chromium, type Browser } from 'playwright-core'

/** Debian's chromium, or the one CHROMIUM_PATH names. */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

/**
 * Headless Chromium, launched in a suite's `before`. In CI a missing browser fails the run;
 * elsewhere the suite is skipped with a message.
 */
export const launchChromium = async (suite: Mocha.Context): Promise<Browser> => {
  if (!existsSync(CHROMIUM)) {
    if (process.env.CI === 'true')
      throw new Error(`${CHROMIUM} is missing: install Debian's chromium (.ci/run does)`)
    console.warn(`    skipped: no browser at ${CHROMIUM} (apt-get install chromium)`)
    suite.skip()
  }
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  })
}
