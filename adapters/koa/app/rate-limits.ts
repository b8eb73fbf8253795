import type { AppContext } from '../request/app-state.js'
import { createBuckets, type Taken } from './token-bucket.js'
import { setHeader } from '../response/answer/index.js'
import type { RateLimited } from '../response/problem.js'

/** A token bucket: refilled at `ratePerSecond`, holding at most `burst`. */
export type Rate = { readonly ratePerSecond: number; readonly burst: number }

/** The rate limits of the app; a request over one gets 429 with Retry-After. */
export type RateLimitOptions = {
  /** Every authenticated request, per API key. */
  readonly perKey: Rate
  /**
   * Requests without a valid key (401), per client address (an IPv6 /64): past the burst they
   * get 429. A valid key passes, so every key is still looked up: this tells a failing client to
   * back off, but does not slow a guesser (a right guess is served among the 429s).
   */
  readonly authFailures: Rate
  /**
   * Full answers of the reference page and its assets (not 304s), per client address: the
   * bundle is large and needs no key. None when absent.
   */
  readonly docs?: Rate
  /** Buckets held per kind at most (default 10 000, about 1 MB). */
  readonly maxBuckets?: number
}

/**
 * draft-ietf-httpapi-ratelimit-headers-10 (structured fields). A token bucket is described as
 * its quota `q` (the burst) and window `w` (seconds to refill it from empty); `r` is the whole
 * tokens left and `t` the seconds until the bucket is full again.
 */
const policyOf = (name: string, rate: Rate) =>
  `"${name}";q=${rate.burst};w=${Math.max(1, Math.ceil(rate.burst / rate.ratePerSecond))}`

const announce = (ctx: AppContext, policy: string, name: string, taken: Taken) => {
  setHeader(ctx, 'RateLimit-Policy', policy)
  setHeader(ctx, 'RateLimit', `"${name}";r=${taken.remaining};t=${taken.resetSeconds}`)
}

const refuse = (taken: Taken): RateLimited | undefined =>
  taken.allowed ? undefined : { _tag: 'RateLimited', retryAfterSeconds: taken.retryAfterSeconds }

/** Per-instance limits (see the README for why not shared through the store). */
export const createRateLimits = (options: RateLimitOptions, now: () => number) => {
  const maxBuckets = options.maxBuckets ?? 10_000
  const keys = createBuckets({ ...options.perKey, maxBuckets })
  const failures = createBuckets({ ...options.authFailures, maxBuckets })
  const keyPolicy = policyOf('default', options.perKey)
  const failurePolicy = policyOf('auth-failures', options.authFailures)
  const docs =
    options.docs === undefined ? undefined : createBuckets({ ...options.docs, maxBuckets })
  const docsPolicy = options.docs === undefined ? '' : policyOf('docs', options.docs)
  return {
    /** One full answer of the reference page or an asset, per client address. */
    admitDocs: (ctx: AppContext, address: string): RateLimited | undefined => {
      if (docs === undefined) return undefined
      const taken = docs.take(address, now())
      announce(ctx, docsPolicy, 'docs', taken)
      return refuse(taken)
    },
    /**
     * After a failed authentication: the failure as it is (401) while the address has budget,
     * 429 once it is spent.
     */
    failure: <P>(ctx: AppContext, address: string, problem: P): P | RateLimited => {
      const taken = failures.take(address, now())
      announce(ctx, failurePolicy, 'auth-failures', taken)
      return refuse(taken) ?? problem
    },
    /** After authentication: one token of the key's bucket. */
    admitKey: (ctx: AppContext, keyId: string): RateLimited | undefined => {
      const taken = keys.take(keyId, now())
      announce(ctx, keyPolicy, 'default', taken)
      return refuse(taken)
    },
  }
}
export type RateLimits = ReturnType<typeof createRateLimits>
