import { expect } from 'chai'
import fc from 'fast-check'
import { createBuckets } from '../../../../adapters/koa/app/token-bucket.js'

const policy = fc.record({
  ratePerSecond: fc.integer({ min: 1, max: 50 }),
  burst: fc.integer({ min: 1, max: 20 }),
})
/** Gaps between requests, in ms, on an injected clock. */
const gaps = fc.array(fc.integer({ min: 0, max: 400 }), { minLength: 1, maxLength: 60 })

describe('token bucket', () => {
  it('starts full: burst requests at once pass, the next is refused with an honest Retry-After', () => {
    fc.assert(
      fc.property(policy, ({ ratePerSecond, burst }) => {
        const buckets = createBuckets({ ratePerSecond, burst, maxBuckets: 10 })
        for (let i = 0; i < burst; i++) {
          const taken = buckets.take('k', 1000)
          expect(taken).to.include({ allowed: true, remaining: burst - 1 - i })
        }
        const refused = buckets.take('k', 1000)
        expect(refused.allowed).to.equal(false)
        expect(refused.remaining).to.equal(0)
        expect(refused.retryAfterSeconds).to.equal(Math.max(1, Math.ceil(1 / ratePerSecond)))
        expect(refused.resetSeconds).to.equal(Math.ceil(burst / ratePerSecond))
        expect(buckets.take('k', 1000 + refused.retryAfterSeconds * 1000).allowed).to.equal(true)
      }),
    )
  })

  it('never lets more than burst + rate × elapsed through in any stretch of time (property)', () => {
    fc.assert(
      fc.property(policy, gaps, ({ ratePerSecond, burst }, delays) => {
        const buckets = createBuckets({ ratePerSecond, burst, maxBuckets: 10 })
        let now = 0
        const passed: number[] = []
        for (const gap of delays) {
          now += gap
          if (buckets.take('k', now).allowed) passed.push(now)
        }
        for (let i = 0; i < passed.length; i++)
          for (let j = i; j < passed.length; j++) {
            const elapsed = ((passed[j] as number) - (passed[i] as number)) / 1000
            expect(j - i + 1).to.be.at.most(burst + ratePerSecond * elapsed + 1e-9)
          }
      }),
    )
  })

  it('refuses only when the bucket is empty, and remaining is always within 0..burst (property)', () => {
    fc.assert(
      fc.property(policy, gaps, ({ ratePerSecond, burst }, delays) => {
        const buckets = createBuckets({ ratePerSecond, burst, maxBuckets: 10 })
        let now = 0
        for (const gap of delays) {
          now += gap
          const before = buckets.peek('k', now)
          const taken = buckets.take('k', now)
          expect(taken.allowed).to.equal(before.allowed)
          expect(taken.remaining).to.be.within(0, burst - 1)
          if (!taken.allowed) expect(taken.retryAfterSeconds).to.be.at.least(1)
        }
      }),
    )
  })

  it('keys have separate buckets', () => {
    const buckets = createBuckets({ ratePerSecond: 1, burst: 1, maxBuckets: 10 })
    expect(buckets.take('a', 0).allowed).to.equal(true)
    expect(buckets.take('a', 0).allowed).to.equal(false)
    expect(buckets.take('b', 0).allowed).to.equal(true)
  })

  it('holds bounded memory: idle buckets are swept, and the count is capped (property)', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.string({ minLength: 1, maxLength: 8 }), { maxLength: 200 }),
        fc.integer({ min: 1, max: 50 }),
        (keys, maxBuckets) => {
          const buckets = createBuckets({ ratePerSecond: 10, burst: 5, maxBuckets })
          for (const key of keys) buckets.take(key, 0)
          expect(buckets.size()).to.be.at.most(maxBuckets)
          // 5 tokens at 10/s: full again after 500 ms, so every old bucket is swept.
          buckets.take('late', 500)
          expect(buckets.size()).to.equal(1)
        },
      ),
    )
  })

  it('peek does not create a bucket or take a token', () => {
    const buckets = createBuckets({ ratePerSecond: 1, burst: 1, maxBuckets: 10 })
    expect(buckets.peek('a', 0).allowed).to.equal(true)
    expect(buckets.size()).to.equal(0)
    expect(buckets.take('a', 0).allowed).to.equal(true)
    expect(buckets.peek('a', 0).allowed).to.equal(false)
  })
})
