import { expect } from 'chai'
import fc from 'fast-check'
import { hasAnyHeaderOf } from '../../apps/server/tracing/request-spans.js'

/** The headers propagators name, and others a request may carry. */
const NAMES = [
  'traceparent',
  'tracestate',
  'baggage',
  'b3',
  'x-b3-traceid',
  'uber-trace-id',
  'host',
]

describe("tracing: the look for a caller's headers before a propagator's extract", () => {
  it("finds a header exactly when one of the names given is there, in any order (W3C's own read by name)", () => {
    const w3c = fc.shuffledSubarray(['traceparent', 'tracestate', 'baggage'], { minLength: 3 })
    const fields = fc.oneof(w3c, fc.uniqueArray(fc.constantFrom(...NAMES), { maxLength: 4 }))
    const headers = fc.dictionary(fc.constantFrom(...NAMES), fc.string({ maxLength: 8 }))
    fc.assert(
      fc.property(fields, headers, (names, given) => {
        const expected = names.some((name) => Object.hasOwn(given, name))
        expect(hasAnyHeaderOf(names)(given)).to.equal(expected)
      }),
      { numRuns: 500 },
    )
  })
})
