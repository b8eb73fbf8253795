import type { RetryBudget } from './budget.js'

/** The numeric settings a client or a call takes, each with the range it must be in. */
export type Settings = {
  readonly timeoutMs?: number | undefined
  readonly maxAnswerBytes?: number | undefined
  readonly budget?: Partial<RetryBudget> | undefined
}

type Rule = readonly [range: string, holds: (n: number) => boolean]

const positive: Rule = ['a positive number of ms, or Infinity for no limit', (n) => n > 0]
const positiveInteger: Rule = ['a positive integer', (n) => Number.isInteger(n) && n > 0]

const RULES = {
  timeoutMs: positive,
  maxAnswerBytes: positiveInteger,
  'budget.attempts': positiveInteger,
  'budget.totalMs': positive,
  'budget.baseDelayMs': ['a finite number of ms, 0 or more', (n) => Number.isFinite(n) && n >= 0],
  'budget.maxDelayMs': ['a number of ms, 0 or more, or Infinity for no ceiling', (n) => n >= 0],
} as const satisfies Record<string, Rule>

/**
 * Throws a RangeError naming the first setting out of its range: NaN, a negative or an
 * unbounded count would otherwise pass silently into timers and loops.
 */
export const checkSettings = ({ timeoutMs, maxAnswerBytes, budget = {} }: Settings): void => {
  const given = {
    timeoutMs,
    maxAnswerBytes,
    'budget.attempts': budget.attempts,
    'budget.totalMs': budget.totalMs,
    'budget.baseDelayMs': budget.baseDelayMs,
    'budget.maxDelayMs': budget.maxDelayMs,
  }
  for (const [name, [range, holds]] of Object.entries(RULES) as [keyof typeof RULES, Rule][]) {
    const value: unknown = given[name]
    if (value !== undefined && !(typeof value === 'number' && holds(value)))
      throw new RangeError(`${name} must be ${range}, not ${String(value)}`)
  }
}

/**
 * Throws a RangeError naming `option` when its value cannot go in a header (a line break, NUL, a
 * character past U+00FF): fetch would throw before sending, and the retries would take that for
 * a network failure, spending the budget on a request that never leaves.
 */
export const checkHeaderValue = (option: string, value: string | undefined): void => {
  if (value === undefined) return
  try {
    void new Headers({ 'X-Checked': value })
  } catch {
    throw new RangeError(
      `${option} must be text a header can carry: no line break, no NUL, no character past U+00FF`,
    )
  }
}

/**
 * Throws a RangeError unless `baseUrl` is an http or https URL (in a page, it may be relative to
 * the page): fetch refuses any other without sending, which the retries would take for a network
 * failure.
 */
export const checkBaseUrl = (baseUrl: string): void => {
  const page = (globalThis as { location?: { href?: unknown } }).location?.href
  let protocol = ''
  try {
    protocol = new URL(String(baseUrl), typeof page === 'string' ? page : undefined).protocol
  } catch {
    // not a URL: refused below
  }
  if (protocol !== 'http:' && protocol !== 'https:')
    throw new RangeError(
      `baseUrl must be an http or https URL, its base path included (http://localhost:8080/v1), not ${JSON.stringify(baseUrl)}`,
    )
}
