import * as E from 'fp-ts/lib/Either.js'
import { backOffMs, isTransient, type RetryBudget } from './budget.js'
import { clientError, type ClientError } from './client-error.js'
import { aborted } from './exchange.js'
import { after } from './timer.js'

/** Told before each wait: which attempt failed, why, and how long until the next. */
export type RetryNotice = {
  readonly attempt: number
  readonly failure: ClientError
  readonly delayMs: number
}

export type RetryPolicy = {
  readonly budget: RetryBudget
  readonly timeoutMs: number
  readonly signal: AbortSignal | undefined
  readonly onRetry: ((notice: RetryNotice) => void) | undefined
}

/** Resolves true after `ms`, or false as soon as the signal aborts. */
const sleep = (ms: number, signal: AbortSignal | undefined): Promise<boolean> =>
  new Promise((resolve) => {
    if (signal?.aborted) return resolve(false)
    const onAbort = () => (cancel(), resolve(false))
    const cancel = after(ms, () => (signal?.removeEventListener('abort', onAbort), resolve(true)))
    signal?.addEventListener('abort', onAbort, { once: true })
  })

const exhausted = (attempts: number, elapsedMs: number, last: ClientError): ClientError =>
  clientError({
    code: 'budget_exhausted',
    message: `gave up after ${attempts} attempt(s) in ${Math.round(elapsedMs)} ms: ${last.message}`,
    attempts,
    elapsedMs,
    last,
  })

/**
 * Runs `attempt` until it succeeds, fails for good, or the budget ends: each attempt gets the
 * call's timeout, cut to the time the budget has left. A wait that would end past the budget is
 * not started: the call fails at once with budget_exhausted.
 */
export const withRetries = async <A>(
  attempt: (timeoutMs: number) => Promise<E.Either<ClientError, A>>,
  { budget, timeoutMs, signal, onRetry }: RetryPolicy,
): Promise<E.Either<ClientError, A>> => {
  const start = Date.now()
  for (let n = 1; ; n++) {
    const left = budget.totalMs - (Date.now() - start)
    const result = await attempt(Math.max(1, Math.min(timeoutMs, left)))
    if (E.isRight(result) || !isTransient(result.left)) return result
    const delayMs = backOffMs(n, result.left, budget)
    const elapsed = Date.now() - start
    if (n >= budget.attempts || elapsed + delayMs >= budget.totalMs)
      return E.left(exhausted(n, elapsed, result.left))
    onRetry?.({ attempt: n, failure: result.left, delayMs })
    if (!(await sleep(delayMs, signal))) return E.left(aborted(signal as AbortSignal))
  }
}
