import type { ClientError } from './client-error.js'

/** How long a call may keep retrying transient failures. */
export type RetryBudget = {
  /** At most this many attempts, the first included: 1 never retries. */
  readonly attempts: number
  /** No wait ends later than this many ms after the call began; each attempt is cut to fit. */
  readonly totalMs: number
  /** The first back-off waits between half of this and all of it; each next one doubles it. */
  readonly baseDelayMs: number
  /** The back-off's ceiling, when the answer gave no Retry-After. */
  readonly maxDelayMs: number
}

/**
 * Enough to ride out a restart: an instance's drain and start, or a database's, take seconds,
 * and a create given up after an unanswered attempt leaves its outcome unknown to the caller.
 */
export const DEFAULT_BUDGET: RetryBudget = {
  attempts: 10,
  totalMs: 60_000,
  baseDelayMs: 200,
  maxDelayMs: 5_000,
}

/** Transient failures: the same request may succeed later, and repeating it is safe. */
const TRANSIENT: ReadonlySet<ClientError['code']> = new Set([
  'network',
  'timeout',
  'unavailable',
  'rate_limited',
  'idempotency_key_in_use',
])

/**
 * A gateway's own answer: a proxy in front of the service (HAProxy, nginx) answers these with a
 * page of its own while no instance is up, so they are retried as the service's 503 is.
 */
const GATEWAY: ReadonlySet<number> = new Set([502, 503, 504])

export const isTransient = (failure: ClientError): boolean =>
  TRANSIENT.has(failure.code) || (failure.code === 'undecodable' && GATEWAY.has(failure.status))

/**
 * The wait before attempt `attempt + 1`: the answer's Retry-After when it gave one (plus up to
 * one base delay, so that clients told the same second do not all return in it), else a random
 * wait between half and all of the doubled base delay, at most maxDelayMs: the fixed half keeps
 * a run of refused connections from spending every attempt in the first moments of a restart.
 */
export const backOffMs = (
  attempt: number,
  failure: ClientError,
  budget: RetryBudget,
  random: () => number = Math.random,
): number => {
  const retryAfter = 'retryAfterSeconds' in failure ? failure.retryAfterSeconds : undefined
  if (retryAfter !== undefined) return retryAfter * 1000 + random() * budget.baseDelayMs
  const ceiling = Math.min(budget.maxDelayMs, budget.baseDelayMs * 2 ** (attempt - 1))
  return ceiling / 2 + (random() * ceiling) / 2
}
