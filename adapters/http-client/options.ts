import type { RetryBudget } from './budget.js'
import type { RetryNotice } from './retry.js'

/** What a deprecated operation's answer said, as its headers gave it (RFC 9745, RFC 8594). */
export type DeprecationNotice = {
  readonly operationId: string
  /** `Deprecation`: `@` and the Unix time it counts as deprecated from. */
  readonly deprecation: string
  /** `Sunset`: the HTTP date from which the operation answers 410. */
  readonly sunset: string | null
  /** `Link`: the successor (`rel="successor-version"`). */
  readonly link: string | null
}

/** Where the service is, the key to call it with, and how the client behaves. */
export type ClientOptions = {
  /** The service's base URL, its base path included: `https://pets.example/v1`. */
  readonly baseUrl: string
  /** Sent as `Authorization: Bearer <apiKey>`. */
  readonly apiKey: string
  /** How long one attempt may wait for its whole answer; default 10,000 ms. */
  readonly timeoutMs?: number
  /**
   * The largest answer body read, in bytes; default DEFAULT_MAX_ANSWER_BYTES. Past it
   * the call fails with `answer_too_large`, and the rest is never read.
   */
  readonly maxAnswerBytes?: number
  /** The retry budget of every call; each field defaults to DEFAULT_BUDGET's. */
  readonly budget?: Partial<RetryBudget>
  /** The fetch to use; default the platform's (Node 20+, browsers). */
  readonly fetch?: typeof fetch
  /** Told once per client, at the first answer of a deprecated operation. */
  readonly onDeprecation?: (notice: DeprecationNotice) => void
  /** Told before each retry's wait: for logs and metrics. */
  readonly onRetry?: (notice: RetryNotice & { readonly operationId: string }) => void
}
