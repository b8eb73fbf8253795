import * as E from 'fp-ts/lib/Either.js'
import { testFunctionsOf, type TestFunctions } from './test-functions.js'

/** A fresh, empty store, and how to dispose of it. */
export type FreshStore<S> = {
  /** The store under test. */
  readonly store: S
  /** Called after each test: close connections, drop the database. */
  readonly dispose: () => Promise<void>
}

/** What every contract suite takes besides its factory. */
export type ContractOptions = {
  /** Runs of each property (fast-check's numRuns); 25 by default. */
  readonly properties?: number
  /** describe, it, beforeEach, afterEach of your runner; mocha's globals by default. */
  readonly test?: TestFunctions
}

/** What a suite's body gets: the store of the running test, and the runner's `it`. */
export type Suite<S> = {
  readonly store: () => S
  readonly it: TestFunctions['it']
  readonly properties: number
}

/** The Right of a store call; a Left fails the test with the store's error. */
export const ok = async <A>(task: () => Promise<E.Either<unknown, A>>): Promise<A> => {
  const result = await task()
  if (E.isLeft(result)) throw new Error(`store failed: ${JSON.stringify(result.left, bigints)}`)
  return result.right
}
const bigints = (_key: string, value: unknown) =>
  typeof value === 'bigint' ? value.toString() : value

/** Registers one describe block whose every test gets a fresh store, disposed of after it. */
export const defineSuite = <S>(
  title: string,
  fresh: () => Promise<FreshStore<S>>,
  options: ContractOptions,
  body: (suite: Suite<S>) => void,
): void => {
  const { describe, it, beforeEach, afterEach } = testFunctionsOf(options.test)
  describe(title, function (this: unknown) {
    // mocha's per-test default (2 s) is too short for a database; node:test has no default.
    const mocha = this as { timeout?: (ms: number) => void } | undefined
    if (typeof mocha?.timeout === 'function') mocha.timeout(60_000)
    let current: FreshStore<S> | undefined
    beforeEach(async () => {
      current = await fresh()
    })
    afterEach(async () => {
      await current?.dispose()
      current = undefined
    })
    const store = (): S => {
      if (current === undefined) throw new Error('no store: the factory has not run')
      return current.store
    }
    body({ store, it, properties: options.properties ?? 25 })
  })
}
