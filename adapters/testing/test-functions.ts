/**
 * The four functions a suite needs from a test runner. mocha's globals and node:test's exports
 * both fit, so the kit depends on neither: it takes them from the caller, else from the globals
 * mocha defines.
 */
export type TestFunctions = {
  /** Registers a group of tests. */
  readonly describe: (name: string, body: () => void) => unknown
  /** Registers one test. */
  readonly it: (name: string, body: () => Promise<void>) => unknown
  /** Runs before each test of the group. */
  readonly beforeEach: (hook: () => Promise<void>) => unknown
  /** Runs after each test of the group. */
  readonly afterEach: (hook: () => Promise<void>) => unknown
}

const NAMES = ['describe', 'it', 'beforeEach', 'afterEach'] as const

/** The caller's functions, or the runner's globals (mocha); a clear error when there are none. */
export const testFunctionsOf = (given: TestFunctions | undefined): TestFunctions => {
  if (given !== undefined) return given
  const globals = globalThis as unknown as Partial<Record<(typeof NAMES)[number], unknown>>
  const missing = NAMES.filter((name) => typeof globals[name] !== 'function')
  if (missing.length > 0)
    throw new Error(
      `no global ${missing.join(', ')}: run under mocha, or pass { describe, it, beforeEach, afterEach } (for example from node:test)`,
    )
  return globals as unknown as TestFunctions
}
