export type BucketPolicy = {
  /** Tokens added per second: the sustained rate. */
  readonly ratePerSecond: number
  /** The bucket's size: how many requests may come at once after a pause. */
  readonly burst: number
  /** The most buckets held; past it the least recently created is dropped. */
  readonly maxBuckets: number
}

export type Taken = {
  readonly allowed: boolean
  /** Whole tokens left after this request. */
  readonly remaining: number
  /** Seconds until the bucket is full again (rounded up). */
  readonly resetSeconds: number
  /** When refused: seconds until one token is back (rounded up, at least 1). */
  readonly retryAfterSeconds: number
}

type Bucket = { tokens: number; at: number }

/**
 * Token buckets by key, on an injected clock (milliseconds). The per-request cost is a Map
 * lookup and some arithmetic. Memory stays bounded: a bucket that has refilled is the same as
 * no bucket, so such buckets are swept at most once per full-refill time, and the number held is
 * capped (a flood of distinct keys drops the oldest bucket, which only ever errs towards allowing).
 */
export const createBuckets = (policy: BucketPolicy) => {
  const { ratePerSecond, burst, maxBuckets } = policy
  const perMs = ratePerSecond / 1000
  const refillMs = burst / perMs
  const buckets = new Map<string, Bucket>()
  let sweptAt = -Infinity

  const sweep = (now: number) => {
    sweptAt = now
    for (const [key, b] of buckets)
      if (b.tokens + (now - b.at) * perMs >= burst) buckets.delete(key)
  }
  const level = (key: string, now: number): Bucket => {
    if (now - sweptAt >= refillMs) sweep(now)
    let bucket = buckets.get(key)
    if (bucket === undefined) {
      bucket = { tokens: burst, at: now }
      buckets.set(key, bucket)
      if (buckets.size > maxBuckets) buckets.delete(buckets.keys().next().value as string)
      return bucket
    }
    bucket.tokens = Math.min(burst, bucket.tokens + Math.max(0, now - bucket.at) * perMs)
    bucket.at = Math.max(bucket.at, now)
    return bucket
  }
  const report = (bucket: Bucket, allowed: boolean): Taken => ({
    allowed,
    remaining: Math.floor(bucket.tokens),
    resetSeconds: Math.ceil((burst - bucket.tokens) / ratePerSecond),
    retryAfterSeconds: Math.max(1, Math.ceil((1 - bucket.tokens) / ratePerSecond)),
  })

  return {
    /** Takes one token if there is one. */
    take: (key: string, now: number): Taken => {
      const bucket = level(key, now)
      const allowed = bucket.tokens >= 1
      if (allowed) bucket.tokens -= 1
      return report(bucket, allowed)
    },
    /** Whether a token is there, without taking it. */
    peek: (key: string, now: number): Taken => {
      const bucket = buckets.has(key) ? level(key, now) : { tokens: burst, at: now }
      return report(bucket, bucket.tokens >= 1)
    },
    size: (): number => buckets.size,
  }
}
export type Buckets = ReturnType<typeof createBuckets>
